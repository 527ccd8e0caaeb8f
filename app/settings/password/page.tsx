import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentUser } from "@/lib/api/page-session";
import { passwordsOn } from "@/lib/auth/account-policy";
import { withReturnTo } from "@/lib/api/return-to";
import { config } from "@/lib/config";
import { pageMessage } from "@/lib/errors";
import { PASSWORD_MAX, PASSWORD_MIN } from "@/lib/field-lengths";
import { signInMethods } from "@/lib/identity/manage-identities";
import { passkeysToReview } from "@/lib/passkeys/manage-passkeys";
import { DoneNotice, ErrorAlert } from "../../form-parts";
import { PasskeyReview } from "../passkey-entry";
import { SettingsNav } from "../settings-nav";

export const metadata: Metadata = { title: "Password" };

export default async function PasswordPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await currentUser();
  if (user === null) redirect(withReturnTo("/signin", "/settings/password"));
  const passwords = passwordsOn(config());
  const [query, methods] = await Promise.all([searchParams, signInMethods(user.id, passwords)]);
  const changed = query.changed === "1";
  // Once it is changed: the passkeys, which still sign in without the password.
  const review = changed ? await passkeysToReview(user.id) : null;
  return (
    <>
      <h1>Password</h1>
      <SettingsNav />
      <ErrorAlert message={pageMessage(query.error)} />
      <DoneNotice message={changed ? "Your password is changed. Every other session is signed out." : null} />
      {review ? <PasskeyReview {...review} /> : null}
      {methods.password ? (
        <ChangePasswordForm email={user.email} />
      ) : (
        <p className="card">
          {passwords ? "Your account has no password" : "Passwords are not used on this service"}: it signs in through your identity provider{methods.passkeys > 0 ? " or a passkey" : ""}.
        </p>
      )}
    </>
  );
}

/** The password change form: the current password and a new one. */
function ChangePasswordForm({ email }: { email: string }) {
  return (
    <form method="post" action="/settings/password/change" className="card stack">
      <p className="muted">Changing your password signs out every other browser signed in to your account. This one stays signed in.</p>
      {/* For password managers: the account the new password belongs to. */}
      <input type="text" name="username" autoComplete="username" value={email} readOnly hidden />
      <label>
        Current password
        <input name="current_password" type="password" autoComplete="current-password" required maxLength={PASSWORD_MAX} />
      </label>
      <label>
        New password
        <input name="new_password" type="password" autoComplete="new-password" required minLength={PASSWORD_MIN} maxLength={PASSWORD_MAX} aria-describedby="new-password-hint" />
        <span className="hint" id="new-password-hint">
          At least {PASSWORD_MIN} characters, not the current one.
        </span>
      </label>
      <button type="submit">Change password</button>
    </form>
  );
}
