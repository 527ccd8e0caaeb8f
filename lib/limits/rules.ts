import type { Config } from "../config";
import type { RateLimit } from "./rate-limit";

// Every abuse limit, in one place: what it counts, how many, per how long. The numbers come
// from the configuration (docs/configuration.md).

const MINUTE_MS = 60_000;

/** Wrong user codes one account may type on /device in 15 minutes: 20^8 codes leave a guess no chance. */
export const USER_CODE_GUESSES_PER_ACCOUNT = 10;
/** The same per address (IPv6 /64), for many accounts behind one address. */
export const USER_CODE_GUESSES_PER_ADDRESS = 30;
const HOUR_MS = 60 * MINUTE_MS;
/** Passkeys one account may hold (lib/passkeys/register-passkey.ts): counted in the Passkey table itself. */
export const PASSKEYS_PER_ACCOUNT = 20;
/** WebAuthn challenges a signed-in account may ask for in a minute (adding a passkey, confirming an approval): each writes a row. */
export const PASSKEY_CHALLENGES_PER_ACCOUNT = 30;

/** Password-reset requests one address may make in an hour: each may send a mail. */
export const RESET_REQUESTS_PER_ADDRESS = 20;
/** Mails with a link (a reset, a confirmation) one account may be sent in an hour: a mailbox is not a target to flood. */
export const LINK_MAILS_PER_ACCOUNT = 5;

/** Teams one account may make in an hour: each is a row, and a name shown to its members. */
export const NEW_TEAMS_PER_ACCOUNT = 10;
/** Invitations one team may send in an hour: each may be a mail to someone who never asked for it. */
export const INVITATIONS_PER_TEAM = 20;

export function limitRules(cfg: Config) {
  const { limits } = cfg;
  return {
    /** Create Init, per client address. */
    createInit: { name: "create-init", limit: limits.createInitPerMinute, windowMs: MINUTE_MS },
    /** Sign-in and sign-up attempts, per client address (each costs a password hash). */
    authPerAddress: { name: "auth-address", limit: limits.signInPerAddressPerMinute, windowMs: MINUTE_MS },
    /**
     * Wrong passwords (a sign-in, a password change, adding a passkey: every check of
     * lib/auth/password-check.ts) per account and address: past the limit that address may not try that
     * account again in the window. Someone else's failures never lock a person out. A unit is
     * taken before the password is checked and given back if it was right, so at most this many
     * wrong passwords are ever checked, concurrent attempts included.
     */
    signInFailuresPerAccountAndAddress: { name: "sign-in-failures-account-address", limit: limits.signInFailuresPer15Minutes, windowMs: 15 * MINUTE_MS },
    /**
     * Wrong passwords per account, from anywhere: past the same number, every attempt on the
     * account waits, longer with each failure (lib/auth/password-check.ts); this rule refuses nothing.
     * The limit only caps the counter.
     */
    signInFailuresPerAccount: { name: "sign-in-failures-account", limit: 1_000_000, windowMs: 15 * MINUTE_MS },
    /**
     * Password checks in flight per account (a lease each, lib/limits/in-flight.ts): password
     * checks on one account, by any form, run one at a time across all instances, each after its wait, so
     * the wait limits guesses per second and not only the latency of each guess.
     */
    signInsInFlightPerAccount: { name: "sign-in-in-flight", limit: limits.signInsAtOncePerAccount, windowMs: 1 },
    /**
     * New link requests waiting for a browser approval (LEGACY_LINK_APPROVAL), per client
     * address: each one writes a row, as Create Init does, so it counts as much.
     */
    linkApprovalRequests: { name: "link-approval-address", limit: limits.createInitPerMinute, windowMs: MINUTE_MS },
    /** Create Project Link, per access token; a refused request gives its unit back. */
    linksPerToken: { name: "links-token", limit: limits.linksPerTokenPerMinute, windowMs: MINUTE_MS },
    /**
     * Token pickups, per init: status requests with the secret once the init is done, taken
     * before the poll clock is asked and given back if it says slow_down. Polls while pending
     * are governed by the interval alone, so a client that keeps time is never refused.
     */
    /**
     * User codes typed on /device that match no waiting request (RFC 8628 §5.1: a code typed
     * at the verification page must not be guessable), per account and per address; a code
     * that matches gives its units back.
     */
    userCodeGuessesPerAccount: { name: "user-code-account", limit: USER_CODE_GUESSES_PER_ACCOUNT, windowMs: 15 * MINUTE_MS },
    userCodeGuessesPerAddress: { name: "user-code-address", limit: USER_CODE_GUESSES_PER_ADDRESS, windowMs: 15 * MINUTE_MS },
    /** Challenges for adding a passkey or confirming an approval with one, per account (lib/passkeys/); a passkey sign-in's count as sign-ins (authPerAddress). */
    passkeyChallengesPerAccount: { name: "passkey-challenges-account", limit: PASSKEY_CHALLENGES_PER_ACCOUNT, windowMs: MINUTE_MS },
    /** Password-reset requests per client address (lib/auth/password-reset.ts), whether or not the email has an account. */
    resetRequestsPerAddress: { name: "reset-requests-address", limit: RESET_REQUESTS_PER_ADDRESS, windowMs: HOUR_MS },
    /** Mails with a link per account; past it, a request sends nothing and its answer stays the same (it must not tell whether the email has an account). */
    linkMailsPerAccount: { name: "link-mails-account", limit: LINK_MAILS_PER_ACCOUNT, windowMs: HOUR_MS },
    /** New teams per account (lib/teams/teams.ts). */
    newTeamsPerAccount: { name: "new-teams-account", limit: NEW_TEAMS_PER_ACCOUNT, windowMs: HOUR_MS },
    /** Invitations per team (lib/teams/invitations.ts); a refused invitation gives its unit back. */
    invitationsPerTeam: { name: "invitations-team", limit: INVITATIONS_PER_TEAM, windowMs: HOUR_MS },
    pickupsPerInit: { name: "pickups-init", limit: limits.pickupsPerInitPerMinute, windowMs: MINUTE_MS },
    /**
     * Token introspections (RFC 7662), per access token authenticating them: each reads the
     * database (no cache, so that a revocation shows at once), and a verifier that introspects
     * every request should cache its answers briefly rather than hammer the endpoint.
     */
    introspectionsPerToken: { name: "introspections-token", limit: limits.introspectionsPerTokenPerMinute, windowMs: MINUTE_MS },
    /** The same per resource-server credential (lib/resource-servers/): the platform's API, which introspects for all its users. */
    introspectionsPerResourceServer: { name: "introspections-resource-server", limit: limits.introspectionsPerResourceServerPerMinute, windowMs: MINUTE_MS },
    /**
     * Projects created by approving an init, per client address and per account: each is a key
     * generation (a CPU-second) once it is used (lib/projects/new-project.ts). A unit is taken
     * before the project is made and given back if the approval is refused after all.
     */
    newProjectsPerAddress: { name: "new-projects-address", limit: limits.newProjectsPerAddressPerHour, windowMs: HOUR_MS },
    newProjectsPerAccount: { name: "new-projects-account", limit: limits.newProjectsPerAccountPerHour, windowMs: HOUR_MS },
  } satisfies Record<string, RateLimit>;
}

/** Projects one account may hold (PROJECTS_PER_ACCOUNT): no window, counted in the Project table itself. */
export const projectsPerAccount = (cfg: Config) => cfg.limits.projectsPerAccount;

/** Event streams open at once per init, in each process: each holds a place in the waiting room until the init ends. */
export const MAX_STREAMS_PER_INIT = 16;

/**
 * The share of a process's waiting room (WAITING_PER_PROCESS) one address (IPv6: its /64) may
 * hold, waits and streams together: one address's many inits must never fill the room for
 * everyone else.
 */
export const WAITING_SHARE_PER_ADDRESS = 0.1;

/** Typed codes compared per init before it is denied (INIT_CODE_CHECK=enter, lib/init/code-check.ts): the code cannot be guessed. */
export const MAX_CODE_ATTEMPTS = 5;
