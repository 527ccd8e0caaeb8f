import type { Metadata } from "next";
import Link from "next/link";
import { isLinkError, pageMessage } from "@/lib/errors";
import { PASSWORD_MAX, PASSWORD_MIN } from "@/lib/field-lengths";
import { ErrorAlert } from "../form-parts";
import { LinkTokenField } from "../link-token-field";

export const metadata: Metadata = { title: "Set a new password" };

export default async function ResetPasswordPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  return (
    <>
      <h1>Set a new password</h1>
      <form method="post" action="/auth/password-reset" className="card stack">
        <ErrorAlert message={pageMessage(query.error)} />
        {isLinkError(query.error) ? (
          <p>
            <Link href="/forgot-password">Ask for a new link</Link>
          </p>
        ) : null}
        <LinkTokenField purpose="reset_password" />
        <p>Every session of your account is signed out when the new password is set.</p>
        <label>
          New password
          <input name="password" type="password" autoComplete="new-password" required minLength={PASSWORD_MIN} maxLength={PASSWORD_MAX} aria-describedby="reset-password-hint" />
          <span id="reset-password-hint" className="muted">
            {PASSWORD_MIN} to {PASSWORD_MAX} characters.
          </span>
        </label>
        <button type="submit">Set the password</button>
      </form>
    </>
  );
}
