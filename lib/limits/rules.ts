import type { Config } from "../config";
import type { RateLimit } from "./rate-limit";

// Every abuse limit, in one place: what it counts, how many, per how long. The numbers come
// from the configuration (README, Configuration).

const MINUTE_MS = 60_000;

export function limitRules(cfg: Config) {
  const { limits } = cfg;
  return {
    /** Create Init, per client address. */
    createInit: { name: "create-init", limit: limits.createInitPerMinute, windowMs: MINUTE_MS },
    /** Sign-in and sign-up attempts, per client address (each costs a password hash). */
    authPerAddress: { name: "auth-address", limit: limits.signInPerAddressPerMinute, windowMs: MINUTE_MS },
    /**
     * Sign-in attempts per account (by email, known or not). An attacker can hold a victim's
     * sign-in off for at most the rest of one 15-minute window, never longer.
     */
    signInPerAccount: { name: "sign-in-account", limit: limits.signInPerAccountPer15Minutes, windowMs: 15 * MINUTE_MS },
    /** Create Project Link, per access token. */
    linksPerToken: { name: "links-token", limit: limits.linksPerTokenPerMinute, windowMs: MINUTE_MS },
    /** Status requests with the init's secret (the token pickup), per init. */
    pickupsPerInit: { name: "pickups-init", limit: limits.pickupsPerInitPerMinute, windowMs: MINUTE_MS },
  } satisfies Record<string, RateLimit>;
}
