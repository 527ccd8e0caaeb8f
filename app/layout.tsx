import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { pageSession } from "@/lib/auth/current-user";
import { formErrorMessage } from "@/lib/http/messages";
import { ErrorAlert } from "./form-parts";
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
          <Link href="/" className="brand">
            initlink
          </Link>
          <nav aria-label="Account">
            {user ? (
              <>
                <Link href="/projects">Projects</Link>
                <Link href="/settings/tokens">Access tokens</Link>
                <Link href="/activity">Activity</Link>
                <span className="muted">{user.email}</span>
                <form method="post" action="/auth/signout">
                  <button type="submit" className="link">
                    Sign out
                  </button>
                </form>
              </>
            ) : (
              <>
                <Link href="/signin">Sign in</Link>
                <Link href="/signup">Sign up</Link>
              </>
            )}
          </nav>
        </header>
        <main>
          {duplicateCookie ? <ErrorAlert message={formErrorMessage("duplicate_session_cookie")} /> : null}
          {children}
        </main>
      </body>
    </html>
  );
}
