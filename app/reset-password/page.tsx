import type { Metadata } from "next";
import { isLinkError, pageMessage } from "@/lib/errors";
import { PASSWORD_MAX, PASSWORD_MIN } from "@/lib/field-lengths";
import { DeadLink } from "../dead-link";
import { ErrorAlert } from "../form-parts";
import { LinkTokenField } from "../link-token-field";

export const metadata: Metadata = { title: "Set a new password" };

export default async function ResetPasswordPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  return (
    <>
      <h1>Set a new password</h1>
      {isLinkError(query.error) ? (
        <DeadLink message={pageMessage(query.error)} href="/forgot-password" label="Ask for a new link" />
      ) : (
        <ResetForm error={pageMessage(query.error)} />
      )}
    </>
  );
}

function ResetForm({ error }: { error: string | null }) {
  return (
    <form method="post" action="/auth/password-reset" className="card stack narrow">
        <ErrorAlert message={error} />
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
  );
}
