import type { Metadata } from "next";
import Link from "next/link";
import { Suspense, type ReactNode } from "react";
import { pageSession } from "@/lib/api/page-session";
import { passwordSignUpOpen } from "@/lib/auth/account-policy";
import { config } from "@/lib/config";
import { pageMessage } from "@/lib/errors";
import { ErrorAlert } from "./form-parts";
import { NavLink } from "./nav-link";
import { SignInLinks } from "./sign-in-links";
import "./globals.css";

/** The titles carry the platform's name (APP_NAME): "<page> · <name>". */
export function generateMetadata(): Metadata {
  const { name } = config().brand;
  return {
    title: { default: name, template: `%s · ${name}` },
    description: "Hand a command-line client over to the browser and back, then link it to a project.",
    referrer: "no-referrer",
  };
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  const { user, duplicateCookie } = await pageSession();
  const brand = config().brand;
  return (
    <html lang="en">
      <body>
        <header className="site">
          <Link href="/" className="brand" aria-label={brand.name}>
            {/* The platform's logo (APP_LOGO) or the favicon (app/icon.svg), decorative next to the name; a phone shows the logo alone, so the links keep one row. */}
            <img src={brand.logo ?? "/icon.svg"} alt="" width={20} height={20} />
            <span className="brand-name">{brand.name}</span>
          </Link>
          {user ? (
            <>
              <nav aria-label="Main">
                <NavLink href="/projects">Projects</NavLink>
                <NavLink href="/teams">Teams</NavLink>
                <NavLink href="/settings/tokens" sections={["/settings", "/webhooks"]}>
                  Settings
                </NavLink>
                <NavLink href="/activity">Activity</NavLink>
              </nav>
              {/* Who is signed in, at every width: on a phone this is the header's second row. */}
              <div className="account">
                {/* The account's own settings (sessions, password, privacy) behind the email: the main links keep one row on a phone. */}
                <Link href="/settings/sessions" className="account-email" title={user.email} aria-label={`${user.email}: account settings`}>
                  {user.email}
                </Link>
                <form method="post" action="/auth/signout">
                  <button type="submit" className="link">
                    Sign out
                  </button>
                </form>
              </div>
            </>
          ) : (
            <nav aria-label="Account">
              {/* The search params are read in the browser: the fallback is for the server's render. */}
              <Suspense
                fallback={
                  <>
                    <Link href="/signin">Sign in</Link>
                    {passwordSignUpOpen(config()) ? <Link href="/signup">Sign up</Link> : null}
                  </>
                }
              >
                <SignInLinks signUp={passwordSignUpOpen(config())} />
              </Suspense>
            </nav>
          )}
        </header>
        <main>
          {duplicateCookie ? <ErrorAlert message={pageMessage("duplicate_session_cookie")} /> : null}
          {children}
        </main>
      </body>
    </html>
  );
}
