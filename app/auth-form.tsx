import Link from "next/link";

/** The sign-in and sign-up form: a plain POST, no JavaScript needed. */
export function AuthForm({ mode, returnTo, error }: { mode: "signin" | "signup"; returnTo: string; error: string | null }) {
  const query = returnTo === "/" ? "" : `?returnTo=${encodeURIComponent(returnTo)}`;
  const other = mode === "signin" ? { href: `/signup${query}`, label: "Create an account" } : { href: `/signin${query}`, label: "Sign in instead" };
  return (
    <form method="post" action={`/auth/${mode}${query}`} className="card stack">
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
      <label>
        Email
        <input name="email" type="email" autoComplete="email" required maxLength={254} />
      </label>
      <label>
        Password
        <input
          name="password"
          type="password"
          autoComplete={mode === "signin" ? "current-password" : "new-password"}
          required
          minLength={mode === "signup" ? 10 : undefined}
          maxLength={1024}
        />
        {mode === "signup" ? <span className="hint">At least 10 characters.</span> : null}
      </label>
      <button type="submit">{mode === "signin" ? "Sign in" : "Create account"}</button>
      <p className="muted">
        <Link href={other.href}>{other.label}</Link>
      </p>
    </form>
  );
}
