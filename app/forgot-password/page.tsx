import type { Metadata } from "next";
import Link from "next/link";
import { passwordResetOffered } from "@/lib/auth/password-reset";
import { config } from "@/lib/config";
import { pageMessage } from "@/lib/errors";
import { EMAIL_MAX } from "@/lib/field-lengths";
import { DoneNotice, ErrorAlert } from "../form-parts";

export const metadata: Metadata = { title: "Forgot your password?" };

export default async function ForgotPasswordPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  const offered = passwordResetOffered(config());
  return (
    <>
      <h1>Forgot your password?</h1>
      {offered ? (
        <form method="post" action="/auth/password-reset/request" className="card stack narrow">
          <ErrorAlert message={pageMessage(query.error)} />
          <DoneNotice
            message={
              query.sent === "1"
                ? "If an account here has that email and a password, we sent it a link to set a new one. It works for 30 minutes, once; only the latest link works."
                : null
            }
          />
          <p>Type your account&apos;s email. We mail you a link that sets a new password and signs out every session.</p>
          <label>
            Email
            <input name="email" type="email" autoComplete="email" required maxLength={EMAIL_MAX} />
          </label>
          <button type="submit">Mail me a link</button>
        </form>
      ) : (
        <p className="card">
          {config().accounts.localPasswords
            ? "This service sends no email, so a password cannot be reset by mail here. Ask its administrators, or sign in with a passkey if you added one."
            : "Passwords are not used here: sign in through your identity provider, or with a passkey."}
        </p>
      )}
      <p className="muted">
        <Link href="/signin">Back to sign in</Link>
      </p>
    </>
  );
}
