import type { Config } from "../config";
import { ApiError } from "../errors";

// Who may make an account here, and whether passwords are used at all: SIGN_UP and
// LOCAL_PASSWORDS (docs/configuration.md). A platform whose people all have an account at its
// identity provider closes password sign-up (SIGN_UP=off: the provider's first sign-in makes the
// account) or turns passwords off altogether (LOCAL_PASSWORDS=off: the provider and passkeys).
// The pages show only what these allow; the operations refuse the rest.

/** Whether a person may make an account with an email and a password. */
export const passwordSignUpOpen = (cfg: Config) => cfg.accounts.selfSignUp && cfg.accounts.localPasswords;

/** Whether a person holding a team invitation may make an account with a password (SIGN_UP=invite), though sign-up is otherwise closed. */
export const passwordSignUpByInvitation = (cfg: Config) => cfg.accounts.inviteSignUp && cfg.accounts.localPasswords;

/** Whether passwords sign in, prove the holder, and can be changed. */
export const passwordsOn = (cfg: Config) => cfg.accounts.localPasswords;

/** Refuses a password operation when LOCAL_PASSWORDS=off. */
export function requirePasswordsOn(cfg: Config): void {
  if (!passwordsOn(cfg)) throw new ApiError("passwords_off", "Passwords are not used on this service: sign in through your identity provider or with a passkey.");
}

/**
 * Refuses a password sign-up when SIGN_UP=off (or LOCAL_PASSWORDS=off); with SIGN_UP=invite, unless
 * `invited`: the form carried an open team invitation that this email may accept.
 */
export function requirePasswordSignUpOpen(cfg: Config, invited: boolean): void {
  requirePasswordsOn(cfg);
  if (passwordSignUpOpen(cfg) || (invited && passwordSignUpByInvitation(cfg))) return;
  if (passwordSignUpByInvitation(cfg)) {
    throw new ApiError("sign_up_closed", "Sign-up here is by invitation only: open the invitation link a team's admin sent you, then sign up with the address it was sent to.");
  }
  throw new ApiError("sign_up_closed", "Sign-up is closed on this service: accounts come from its identity provider.");
}
