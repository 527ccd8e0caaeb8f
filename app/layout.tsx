import type { Metadata } from "next";
import Link from "next/link";
import { Suspense, type ReactNode } from "react";
import { pageSession } from "@/lib/api/page-session";
import { pageMessage } from "@/lib/errors";
import { ErrorAlert } from "./form-parts";
import { SignInLinks } from "./sign-in-links";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "initlink", template: "%s · initlink" },
  description: "Hand a command-line client over to the browser and back, then link it to a project.",
  referrer: "no-referrer",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const { user, duplicateCookie } = await pageSession();
  return (
    <html lang="en">
      <body>
        <header className="site">
          <Link href="/" className="brand" aria-label="initlink">
            {/* The favicon (app/icon.svg), decorative next to the name; a phone shows the icon alone, so the nav keeps one row. */}
            <img src="/icon.svg" alt="" width={20} height={20} />
            <span className="brand-name">initlink</span>
          </Link>
          <nav aria-label="Account">
            {user ? (
              <>
                <Link href="/projects">Projects</Link>
                <Link href="/settings/tokens">Tokens</Link>
                <Link href="/activity">Activity</Link>
                {/* Narrow screens keep the header to one row: the email shows from 48rem up. */}
                <span className="muted wide-only">{user.email}</span>
                <form method="post" action="/auth/signout">
                  <button type="submit" className="link" title={`Signed in as ${user.email}`}>
                    Sign out
                  </button>
                </form>
              </>
            ) : (
              // The search params are read in the browser: the fallback is for the server's render.
              <Suspense
                fallback={
                  <>
                    <Link href="/signin">Sign in</Link>
                    <Link href="/signup">Sign up</Link>
                  </>
                }
              >
                <SignInLinks />
              </Suspense>
            )}
          </nav>
        </header>
        <main>
          {duplicateCookie ? <ErrorAlert message={pageMessage("duplicate_session_cookie")} /> : null}
          {children}
        </main>
      </body>
    </html>
  );
}
