import Link from "next/link";
import { safeReturnTo } from "@/lib/auth/return-to";
import { EMAIL_MAX, PASSWORD_MAX, PASSWORD_MIN } from "@/lib/field-limits";
import { formErrorMessage } from "@/lib/http/messages";
import { ErrorAlert } from "./form-parts";

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export const AUTH_TITLES = { signin: "Sign in", signup: "Create an account" } as const;

/** The sign-in or sign-up page, with the error and return target its query carries. */
export async function AuthPage({ mode, searchParams }: { mode: "signin" | "signup"; searchParams: SearchParams }) {
  const query = await searchParams;
  return (
    <>
      <h1>{AUTH_TITLES[mode]}</h1>
      <AuthForm mode={mode} returnTo={safeReturnTo(query.returnTo)} error={formErrorMessage(query.error)} />
    </>
  );
}

/** The sign-in and sign-up form: a plain POST, no JavaScript needed. */
function AuthForm({ mode, returnTo, error }: { mode: "signin" | "signup"; returnTo: string; error: string | null }) {
  const query = returnTo === "/" ? "" : `?returnTo=${encodeURIComponent(returnTo)}`;
  const other = mode === "signin" ? { href: `/signup${query}`, label: "Create an account" } : { href: `/signin${query}`, label: "Sign in instead" };
  return (
    <form method="post" action={`/auth/${mode}${query}`} className="card stack">
      <ErrorAlert message={error} />
      <label>
        Email
        <input name="email" type="email" autoComplete="email" required maxLength={EMAIL_MAX} />
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
        />
        {mode === "signup" ? <span className="hint">At least {PASSWORD_MIN} characters.</span> : null}
      </label>
      <button type="submit">{mode === "signin" ? "Sign in" : "Create account"}</button>
      <p className="muted">
        <Link href={other.href}>{other.label}</Link>
      </p>
    </form>
  );
}
