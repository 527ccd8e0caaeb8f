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
     * Failed sign-ins per account and address: past the limit that address may not try that
     * account again in the window. Someone else's failures never lock a person out.
     */
    signInFailuresPerAccountAndAddress: { name: "sign-in-failures-account-address", limit: limits.signInFailuresPer15Minutes, windowMs: 15 * MINUTE_MS },
    /**
     * Failed sign-ins per account, from anywhere: past the same number, every attempt on the
     * account waits, longer with each failure (lib/auth/accounts.ts), but is never refused.
     * The limit only caps the counter.
     */
    signInFailuresPerAccount: { name: "sign-in-failures-account", limit: 1_000_000, windowMs: 15 * MINUTE_MS },
    /** Create Project Link, per access token. */
    linksPerToken: { name: "links-token", limit: limits.linksPerTokenPerMinute, windowMs: MINUTE_MS },
    /**
     * Token pickups, per init: status requests with the secret once the init is done. Polls
     * while pending are governed by the interval alone, so a client that keeps time is never refused.
     */
    pickupsPerInit: { name: "pickups-init", limit: limits.pickupsPerInitPerMinute, windowMs: MINUTE_MS },
  } satisfies Record<string, RateLimit>;
}
