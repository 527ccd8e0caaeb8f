import { cookies } from "next/headers";
import Link from "next/link";
import { FORM_FLASH_COOKIE, readFormFlash, type AuthField, type FormFlash } from "@/lib/api/form-flash";
import { safeReturnTo, withReturnTo } from "@/lib/api/return-to";
import { passwordSignUpByInvitation, passwordSignUpOpen, passwordsOn } from "@/lib/auth/account-policy";
import { passwordResetOffered } from "@/lib/auth/password-reset";
import { EMAIL_MAX, PASSWORD_MAX, PASSWORD_MIN } from "@/lib/field-lengths";
import { config } from "@/lib/config";
import { pageMessage } from "@/lib/errors";
import { DoneNotice, ErrorAlert, FieldError } from "./form-parts";
import { PasskeySignIn } from "./passkey-sign-in";
import { ProviderSignIn } from "./provider-sign-in";
import { InvitationField } from "./invitation-token";

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export const AUTH_TITLES = { signin: "Sign in", signup: "Create an account" } as const;

type Mode = keyof typeof AUTH_TITLES;

/** What a field refused by the form's schema needs, said next to it. */
const FIELD_PROBLEMS: Record<AuthField, string> = {
  email: `Email: enter an email address (at most ${EMAIL_MAX} characters).`,
  password: `Password: use ${PASSWORD_MIN} to ${PASSWORD_MAX} characters.`,
};

/** The message shown next to the field at fault, or above the form when no one field is. */
function errorPlacement(code: string | string[] | undefined, flash: FormFlash | null): { field: AuthField | null; message: string | null } {
  const message = pageMessage(code);
  if (message === null) return { field: null, message: null };
  const field = flash?.field ?? null;
  if (field === null) return { field: null, message };
  return { field, message: code === "invalid_request" ? FIELD_PROBLEMS[field] : message };
}

/** The sign-in or sign-up page, with the error, the kept email and the return target its request carries. */
export async function AuthPage({ mode, searchParams }: { mode: Mode; searchParams: SearchParams }) {
  const query = await searchParams;
  // The kept email only comes back with the refusal that kept it, never on a fresh visit.
  const flash = query.error === undefined ? null : readFormFlash((await cookies()).get(FORM_FLASH_COOKIE)?.value);
  const cfg = config();
  const provider = cfg.oidc;
  // The password form where passwords are used, and on the sign-up page only while sign-up is open
  // (to anyone, or with SIGN_UP=invite to the holder of a team invitation).
  const byInvitation = mode === "signup" && !passwordSignUpOpen(cfg) && passwordSignUpByInvitation(cfg);
  const passwordForm = mode === "signin" ? passwordsOn(cfg) : passwordSignUpOpen(cfg) || byInvitation;
  // A refusal of the identity provider's flow is said next to its button, not in the password form.
  const providerError = typeof query.error === "string" && query.error.startsWith("oidc_") ? pageMessage(query.error) : null;
  return (
    <>
      <h1>{AUTH_TITLES[mode]}</h1>
      <DoneNotice message={mode === "signin" ? resetNotice(query.reset) : null} />
      {safeReturnTo(query.returnTo).startsWith("/device") ? <p className="muted">Sign in, then type the code your terminal shows.</p> : null}
      {provider === null ? (
        <ErrorAlert message={providerError} />
      ) : (
        <section className="card stack" aria-labelledby="provider-heading">
          <h2 id="provider-heading">With your {provider.displayName} account</h2>
          <ErrorAlert message={providerError} />
          <p>{mode === "signin" ? "No password needed here: you sign in at " : "Your account here is made the first time you sign in at "}{provider.displayName}.</p>
          <ProviderSignIn name={provider.displayName} returnTo={safeReturnTo(query.returnTo)} />
        </section>
      )}
      {passwordForm ? (
        <AuthForm
          mode={mode}
          returnTo={safeReturnTo(query.returnTo)}
          email={flash?.email ?? ""}
          error={errorPlacement(providerError === null ? query.error : undefined, flash)}
          signUpOpen={passwordSignUpOpen(cfg)}
          byInvitation={byInvitation}
          resetOffered={passwordResetOffered(cfg)}
        />
      ) : (
        <ClosedForm mode={mode} provider={provider?.displayName ?? null} error={providerError === null ? pageMessage(query.error) : null} returnTo={safeReturnTo(query.returnTo)} />
      )}
      {mode === "signin" ? <PasskeySignIn returnTo={safeReturnTo(query.returnTo)} /> : null}
    </>
  );
}

/** What the sign-in page says after a password reset (lib/auth/password-reset.ts). */
function resetNotice(reset: string | string[] | undefined): string | null {
  if (reset === "1") return "Your new password is set, and every session was signed out. Sign in with it.";
  if (reset === "confirmed") {
    return "Your new password is set and your email address confirmed. As nobody had confirmed the address before, every other way into the account ended too: its sessions, passkeys, identity provider link, access tokens and applications' logins. Sign in with the new password.";
  }
  return null;
}

/** In place of the password form where this service takes none: what to do instead. */
function ClosedForm({ mode, provider, error, returnTo }: { mode: Mode; provider: string | null; error: string | null; returnTo: string }) {
  const why =
    mode === "signin"
      ? "Passwords are not used here."
      : provider === null
        ? "Sign-up is closed on this service: ask its administrators for an account."
        : `Sign-up with a password is closed here: your account is made the first time you sign in with ${provider}.`;
  return (
    <div className="card stack">
      <ErrorAlert message={error} />
      <p>{why}</p>
      {mode === "signup" ? (
        <p className="muted">
          <Link href={withReturnTo("/signin", returnTo)}>Sign in instead</Link>
        </p>
      ) : null}
    </div>
  );
}

/** The sign-in and sign-up form: a plain POST, no JavaScript needed. */
function AuthForm({
  mode,
  returnTo,
  email,
  error,
  signUpOpen,
  byInvitation,
  resetOffered,
}: {
  mode: Mode;
  returnTo: string;
  email: string;
  error: { field: AuthField | null; message: string | null };
  signUpOpen: boolean;
  /** Sign-up by invitation only (SIGN_UP=invite): the form carries the invitation this tab keeps. */
  byInvitation?: boolean;
  resetOffered: boolean;
}) {
  const other = mode === "signin" ? { href: withReturnTo("/signup", returnTo), label: "Create an account" } : { href: withReturnTo("/signin", returnTo), label: "Sign in instead" };
  const problem = (field: AuthField) => (error.field === field && error.message !== null ? error.message : null);
  const emailProblem = problem("email");
  const passwordProblem = problem("password");
  const hintId = `${mode}-password-hint`;
  const passwordDescription = [passwordProblem ? "password-error" : null, mode === "signup" ? hintId : null].filter((id) => id !== null).join(" ");
  return (
    <form method="post" action={withReturnTo(`/auth/${mode}`, returnTo)} className="card stack narrow">
      {error.field === null ? <ErrorAlert message={error.message} /> : null}
      {byInvitation ? <InvitationField /> : null}
      <label>
        Email
        <input
          name="email"
          type="email"
          autoComplete="email"
          required
          maxLength={EMAIL_MAX}
          defaultValue={email}
          aria-invalid={emailProblem ? true : undefined}
          aria-describedby={emailProblem ? "email-error" : undefined}
          autoFocus={emailProblem !== null}
        />
        {emailProblem ? <FieldError id="email-error" message={emailProblem} /> : null}
      </label>
      <label>
        Password
        <input
          name="password"
          type="password"
          autoComplete={mode === "signin" ? "current-password" : "new-password"}
          required
          minLength={mode === "signup" ? PASSWORD_MIN : undefined}
          maxLength={PASSWORD_MAX}
          aria-invalid={passwordProblem ? true : undefined}
          aria-describedby={passwordDescription || undefined}
          // With the email kept, the password is what is left to type again.
          autoFocus={email !== "" && emailProblem === null}
        />
        {passwordProblem ? <FieldError id="password-error" message={passwordProblem} /> : null}
        {mode === "signup" ? (
          <span className="hint" id={hintId}>
            At least {PASSWORD_MIN} characters.
          </span>
        ) : null}
      </label>
      <button type="submit">{mode === "signin" ? "Sign in" : "Create account"}</button>
      {mode === "signin" && resetOffered ? (
        <p className="muted">
          <Link href="/forgot-password">Forgot your password?</Link>
        </p>
      ) : null}
      {mode === "signup" || signUpOpen ? (
        <p className="muted">
          <Link href={other.href}>{other.label}</Link>
        </p>
      ) : null}
    </form>
  );
}
