import { decodeJwt } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { sessionUser } from "@/lib/auth/sessions";
import { config } from "@/lib/config";
import { seal, unseal } from "@/lib/crypto/sealed";
import { isDatabaseBusy } from "@/lib/database/busy";
import { signInIdentity } from "@/lib/identity/accounts";
import type { Flow } from "@/lib/identity/flow";
import { randomSecret } from "@/lib/secrets";
import { db } from "@/lib/database/db";
import { PEER_ADDRESS_HEADER } from "@/server/request-context.mjs";
import { databaseFingerprint, changedTables } from "../../helpers/hostile";
import { dispatch, inProcess } from "../../helpers/in-process";
import { changePasswordForm, COOKIE_NAME, cookieHeader, newAccount, sessionTokenOf, signIn, signUp, SITE } from "../../helpers/forms";
import { approvedIntoNewProject, createInit, createLink, linkedClient, newEmail, PASSWORD, pickUpToken } from "../../helpers/journey.mjs";
import { introspect, resourceServer } from "../../helpers/oauth";
import { CLIENT_ID, CLIENT_SECRET, signInAtProvider, startTestProvider, type TestProvider } from "../../helpers/oidc-provider";
import { addedPasskey, registrationOptions, removePasskeyForm, SoftwareAuthenticator } from "../../helpers/passkeys";

// Signing in through the platform's OpenID Connect provider (lib/identity/), with a real,
// certified provider upstream (node-oidc-provider, tests/helpers/oidc-provider.ts): the route
// handlers with a real database, on SQLite and PostgreSQL. The provider gives the email at
// UserInfo only (OpenID Connect Core §5.4); tests/e2e/oidc.spec.ts's gives it in the ID token.

const FLOW_COOKIE = "__Host-initlink_oidc";
const CALLBACK = `${SITE}/auth/oidc/callback`;
/** What this site's own page sends with a link's navigation (no Origin on a GET). */
const FROM_OWN_PAGE = { "sec-fetch-site": "same-origin" };
/** The provider's redirect back is a navigation from another site. */
const FROM_PROVIDER = { "sec-fetch-site": "cross-site" };

let provider: TestProvider;
let logins = 0;

beforeAll(async () => {
  provider = await startTestProvider(CALLBACK);
  // Read once, at the first request (lib/config.ts): set before any.
  Object.assign(process.env, { OIDC_ISSUER: provider.issuer, OIDC_CLIENT_ID: CLIENT_ID, OIDC_CLIENT_SECRET: CLIENT_SECRET, OIDC_DISPLAY_NAME: "Acme SSO" });
});

afterAll(() => provider.stop());

afterEach(() => {
  vi.useRealTimers();
});

/** A person at the provider: a fresh login name, and what the provider says of them. */
function personAtProvider(claims: { email?: string; email_verified?: boolean } = {}): { login: string; email: string } {
  const login = `person-${++logins}-${Date.now()}`;
  const email = claims.email ?? `${login}@example.com`;
  provider.accounts.set(login, { email_verified: true, ...claims, email });
  return { login, email };
}

const flowCookieOf = (response: Response): string | undefined =>
  response.headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith(`${FLOW_COOKIE}=`))
    ?.split(";")[0]
    .slice(FLOW_COOKIE.length + 1);

const locationOf = (response: Response) => new URL(response.headers.get("location") ?? "");
const errorOf = (response: Response) => locationOf(response).searchParams.get("error");

type Started = { authorizationUrl: URL; flow: string };

async function started(response: Response): Promise<Started> {
  expect(response.status).toBe(303);
  const flow = flowCookieOf(response);
  if (flow === undefined) throw new Error(`no flow started: ${response.headers.get("location")}`);
  return { authorizationUrl: locationOf(response), flow };
}

/** "Sign in with Acme SSO" on the sign-in page, whose way back is `returnTo`. */
const startSignIn = async (returnTo?: string) =>
  started(await dispatch("GET", `/auth/oidc/start${returnTo === undefined ? "" : `?returnTo=${encodeURIComponent(returnTo)}`}`, { headers: FROM_OWN_PAGE }));

/** "Link Acme SSO" on the settings page of the session `session`. */
const startLink = async (session: string) => started(await dispatch("GET", "/auth/oidc/link", { headers: { ...FROM_OWN_PAGE, ...cookieHeader(session) } }));

/** The provider's redirect back to `callbackUrl`, in a browser holding `flow` (and the session `session`). */
function callback(callbackUrl: URL, flow: string | undefined, session?: string, headers: Record<string, string> = {}) {
  const cookie = [flow === undefined ? null : `${FLOW_COOKIE}=${flow}`, session === undefined ? null : `${COOKIE_NAME}=${session}`].filter((part) => part !== null).join("; ");
  return dispatch("GET", `/auth/oidc/callback${callbackUrl.search}`, { headers: { ...FROM_PROVIDER, ...(cookie === "" ? {} : { cookie }), ...headers } });
}

/** A whole sign-in as `login`: the button, the provider, the callback. */
async function signInThroughProvider(login: string, returnTo?: string) {
  const flow = await startSignIn(returnTo);
  return callback(await signInAtProvider(flow.authorizationUrl.href, login), flow.flow);
}

async function userOf(session: string) {
  const user = await sessionUser(session);
  if (user === null) throw new Error("not signed in");
  return user;
}

/** Only the abuse counters may change: each callback that reaches the provider counts as a sign-in attempt. */
const writtenBesideCounters = (before: Awaited<ReturnType<typeof databaseFingerprint>>, after: Awaited<ReturnType<typeof databaseFingerprint>>) => changedTables(before, after, ["RateLimit"]);

describe("starting a sign-in", () => {
  it("answers 303 to the provider's authorization endpoint with PKCE (S256), state, nonce and the redirect URI; keeps the flow sealed in a short-lived HttpOnly cookie; writes nothing", async () => {
    const before = await databaseFingerprint();
    const response = await dispatch("GET", "/auth/oidc/start?returnTo=%2Finit%2Fway-back-marker", { headers: FROM_OWN_PAGE });
    expect(response.status).toBe(303);
    const url = locationOf(response);
    expect(url.origin + url.pathname).toBe(`${provider.issuer}/auth`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: "code",
      client_id: CLIENT_ID,
      redirect_uri: CALLBACK,
      scope: "openid email profile",
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge_method: "S256",
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      nonce: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    const [cookie] = response.headers.getSetCookie();
    expect(cookie).toMatch(new RegExp(`^${FLOW_COOKIE}=v1\\.[^;]+; Path=/; HttpOnly; SameSite=Lax; Max-Age=600; Secure$`));
    // The verifier and the way back are in the sealed cookie only, never in a URL.
    expect(url.href).not.toContain("way-back-marker");
    expect(await databaseFingerprint()).toEqual(before);
  });

  it("is refused from another site (Sec-Fetch-Site), back to the sign-in page, with no flow", async () => {
    const response = await dispatch("GET", "/auth/oidc/start?returnTo=%2Fdevice", { headers: { "sec-fetch-site": "cross-site" } });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`${SITE}/signin?returnTo=%2Fdevice&error=cross_site_request`);
    expect(flowCookieOf(response)).toBeUndefined();
  });
});

describe("signing in through the provider", () => {
  it("makes the account at the first sign-in (email from the provider, verified as it says, no password) and goes back to the init page; a second sign-in finds it by issuer and sub, whatever the email is now", async () => {
    const prisma = await db();
    const { login, email } = personAtProvider({ email_verified: true });
    const first = await signInThroughProvider(login, "/init/abc?x=1");
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toBe(`${SITE}/init/abc?x=1`);
    const session = sessionTokenOf(first);
    expect(session).not.toBeNull();
    // The flow's cookie goes with the callback, whatever its outcome.
    expect(first.headers.getSetCookie()).toContain(`${FLOW_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Secure`);
    const user = await userOf(session!);
    expect(user.email).toBe(email);
    expect(await prisma.user.findUniqueOrThrow({ where: { id: user.id }, select: { passwordHash: true } })).toEqual({ passwordHash: null });
    expect(await prisma.federatedIdentity.findMany({ where: { userId: user.id }, select: { issuer: true, subject: true, email: true, emailVerified: true } })).toEqual([
      { issuer: provider.issuer, subject: login, email, emailVerified: true },
    ]);

    // The provider's email changes: the account is the same one, found by (issuer, sub).
    provider.accounts.set(login, { email: `renamed-${email}`, email_verified: true });
    const second = await signInThroughProvider(login);
    expect(second.headers.get("location")).toBe(`${SITE}/`);
    expect((await userOf(sessionTokenOf(second)!)).id).toBe(user.id);
    expect(await prisma.user.count({ where: { email: `renamed-${email}` } })).toBe(0);
    const events = await prisma.activityEvent.findMany({ where: { userId: user.id }, select: { kind: true, provider: true, decidedBy: true } });
    expect(events).toEqual([
      { kind: "provider_signed_in", provider: provider.issuer, decidedBy: email },
      { kind: "provider_signed_in", provider: provider.issuer, decidedBy: email },
    ]);
  });

  it.each([
    ["email_verified false", { email_verified: false }],
    ["no email_verified", { email_verified: undefined }],
  ])("marks the email unverified with %s", async (_case, claims) => {
    const { login } = personAtProvider(claims);
    const user = await userOf(sessionTokenOf(await signInThroughProvider(login))!);
    const prisma = await db();
    expect(await prisma.federatedIdentity.findFirstOrThrow({ where: { userId: user.id }, select: { emailVerified: true } })).toEqual({ emailVerified: false });
  });

  it("an account made by the provider has no password: signing in with one fails as a wrong password, and there is none to change", async () => {
    const { login, email } = personAtProvider();
    const session = sessionTokenOf(await signInThroughProvider(login))!;
    expect(errorOf(await signIn({ email, password: PASSWORD }))).toBe("invalid_credentials");
    expect(errorOf(await changePasswordForm(session, { current_password: PASSWORD, new_password: "a new password, long" }))).toBe("no_password");
  });

  it("does not link by email: an email that is an account's already makes nothing, and says to sign in and link from the settings", async () => {
    const local = await newAccount();
    const { login } = personAtProvider({ email: local.email.toUpperCase() });
    const before = await databaseFingerprint();
    const response = await signInThroughProvider(login, "/init/abc");
    expect(response.headers.get("location")).toBe(`${SITE}/signin?returnTo=%2Finit%2Fabc&error=oidc_email_taken`);
    expect(sessionTokenOf(response)).toBeNull();
    expect(writtenBesideCounters(before, await databaseFingerprint())).toEqual([]);
  });

  it("refuses a first sign-in without an email (neither ID token nor UserInfo has one), writing nothing", async () => {
    const login = `no-email-${Date.now()}`;
    const before = await databaseFingerprint();
    const response = await signInThroughProvider(login);
    expect(errorOf(response)).toBe("oidc_no_email");
    expect(writtenBesideCounters(before, await databaseFingerprint())).toEqual([]);
  });
});

describe("answers that are not this browser's, or not the provider's", () => {
  // RFC 6749 §10.12: login CSRF. Someone signs in at the provider as themselves and sends the
  // answer to a victim, whose browser would then be signed in to the sender's account.
  it("refuses the provider's answer brought to another browser (its own flow, or none) and a tampered flow, writing nothing", async () => {
    const attacker = personAtProvider();
    const attackers = await startSignIn();
    const forged = await signInAtProvider(attackers.authorizationUrl.href, attacker.login);
    const victims = await startSignIn("/init/abc");
    const before = await databaseFingerprint();
    const [withOwnFlow, withNone, tampered] = await Promise.all([
      callback(forged, victims.flow),
      callback(forged, undefined),
      callback(forged, `${attackers.flow.slice(0, -2)}AA`),
    ]);
    expect(withOwnFlow.headers.get("location")).toBe(`${SITE}/signin?returnTo=%2Finit%2Fabc&error=oidc_state_mismatch`);
    expect(withNone.headers.get("location")).toBe(`${SITE}/signin?error=oidc_state_mismatch`);
    expect(errorOf(tampered)).toBe("oidc_state_mismatch");
    for (const response of [withOwnFlow, withNone, tampered]) expect(sessionTokenOf(response)).toBeNull();
    expect(await databaseFingerprint()).toEqual(before);

    // The victim's own state on the attacker's code: the state matches, PKCE does not (RFC 7636 §4.6).
    const swapped = new URL(forged);
    swapped.searchParams.set("state", new URL(victims.authorizationUrl).searchParams.get("state")!);
    const response = await callback(swapped, victims.flow);
    expect(errorOf(response)).toBe("oidc_invalid_response");
    expect(writtenBesideCounters(before, await databaseFingerprint())).toEqual([]);
  });

  // RFC 9700 §4.4 (mix-up): an answer naming another issuer (RFC 9207 `iss`), or a flow started
  // with another provider, is not this provider's to complete.
  it("refuses an answer that names another issuer, and a flow started with another provider, writing nothing", async () => {
    const { login } = personAtProvider();
    const flow = await startSignIn();
    const answer = await signInAtProvider(flow.authorizationUrl.href, login);
    expect(answer.searchParams.get("iss")).toBe(provider.issuer);
    const mixedUp = new URL(answer);
    mixedUp.searchParams.set("iss", "https://evil.example");
    const opened = JSON.parse(unseal(config().masterKey, flow.flow, "oidc-flow").toString("utf8")) as Flow;
    const otherProviders = seal(config().masterKey, Buffer.from(JSON.stringify({ ...opened, issuer: "https://other.example" })), "oidc-flow");
    const before = await databaseFingerprint();
    expect(errorOf(await callback(mixedUp, flow.flow))).toBe("oidc_invalid_response");
    expect(errorOf(await callback(answer, otherProviders))).toBe("oidc_state_mismatch");
    expect(writtenBesideCounters(before, await databaseFingerprint())).toEqual([]);
    // Refused before the code went to the provider: the genuine answer still signs in.
    expect(sessionTokenOf(await callback(answer, flow.flow))).not.toBeNull();
  });

  it("refuses a flow older than 10 minutes", async () => {
    const { login } = personAtProvider();
    const flow = await startSignIn();
    const answer = await signInAtProvider(flow.authorizationUrl.href, login);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 600_001 });
    const before = await databaseFingerprint();
    expect(errorOf(await callback(answer, flow.flow))).toBe("oidc_state_mismatch");
    expect(await databaseFingerprint()).toEqual(before);
  });

  it("refuses a replayed callback, writing nothing", async () => {
    const { login } = personAtProvider();
    const flow = await startSignIn();
    const answer = await signInAtProvider(flow.authorizationUrl.href, login);
    expect(sessionTokenOf(await callback(answer, flow.flow))).not.toBeNull();
    const before = await databaseFingerprint();
    const replayed = await callback(answer, flow.flow);
    expect(errorOf(replayed)).toBe("oidc_replayed");
    expect(sessionTokenOf(replayed)).toBeNull();
    expect(await databaseFingerprint()).toEqual(before);
  });

  it("of 50 uses of one answer at once, at most one signs in: the provider takes its code once, and revokes what it gave when it comes again (RFC 6749 §4.1.2)", async () => {
    const prisma = await db();
    const { login, email } = personAtProvider();
    const flow = await startSignIn();
    const answer = await signInAtProvider(flow.authorizationUrl.href, login);
    const answers = await Promise.all(Array.from({ length: 50 }, () => callback(answer, flow.flow)));
    expect(answers.filter((response) => sessionTokenOf(response) !== null).length).toBeLessThanOrEqual(1);
    const refusals = answers.filter((response) => sessionTokenOf(response) === null).map(errorOf);
    expect(refusals.filter((code) => code !== "oidc_replayed" && code !== "oidc_invalid_response" && code !== "unavailable")).toEqual([]);
    expect(await prisma.user.count({ where: { email } })).toBeLessThanOrEqual(1);
    expect(await prisma.session.count({ where: { user: { email } } })).toBe(answers.length - refusals.length);
  });

  it.each([
    ["a first sign-in", false],
    ["a sign-in of a known identity", true],
  ])("%s: 50 completions of one flow at once, past the provider, spend it once (the insert decides)", async (_case, known) => {
    const prisma = await db();
    const { login, email } = personAtProvider();
    if (known) await signInThroughProvider(login);
    const flow: Flow = { purpose: "sign_in", returnTo: "/", issuer: provider.issuer, state: randomSecret(), nonce: randomSecret(), codeVerifier: randomSecret(), expiresAt: Date.now() + 600_000 };
    const identity = { issuer: provider.issuer, subject: login, email, emailVerified: true };
    const outcomes = await Promise.allSettled(Array.from({ length: 50 }, () => signInIdentity(flow, identity, { address: "127.0.0.1", userAgent: null })));
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    // A loser is told the flow was spent; or, with every connection busy past its wait, it never
    // started (route() answers that 503 unavailable): either way it wrote nothing.
    for (const outcome of outcomes) if (outcome.status === "rejected" && !isDatabaseBusy(outcome.reason)) expect(outcome.reason).toMatchObject({ code: "oidc_replayed" });
    expect(await prisma.user.count({ where: { email } })).toBe(1);
    expect(await prisma.federatedIdentity.count({ where: { subject: login } })).toBe(1);
    expect(await prisma.activityEvent.count({ where: { user: { email }, kind: "provider_signed_in" } })).toBe(known ? 2 : 1);
  });

  it("refuses an ID token whose nonce is not the flow's, writing nothing", async () => {
    const { login } = personAtProvider();
    const flow = await startSignIn();
    const changed = new URL(flow.authorizationUrl);
    changed.searchParams.set("nonce", "a-nonce-this-browser-never-sent");
    const answer = await signInAtProvider(changed.href, login);
    const before = await databaseFingerprint();
    expect(errorOf(await callback(answer, flow.flow))).toBe("oidc_invalid_response");
    expect(writtenBesideCounters(before, await databaseFingerprint())).toEqual([]);
  });

  it("says so when the person cancels at the provider (access_denied), writing nothing", async () => {
    personAtProvider();
    const flow = await startSignIn("/device");
    const answer = await signInAtProvider(flow.authorizationUrl.href, "anyone", { deny: true });
    expect(answer.searchParams.get("error")).toBe("access_denied");
    const before = await databaseFingerprint();
    const response = await callback(answer, flow.flow);
    expect(response.headers.get("location")).toBe(`${SITE}/signin?returnTo=%2Fdevice&error=oidc_denied`);
    expect(writtenBesideCounters(before, await databaseFingerprint())).toEqual([]);
  });

  it("says so when the provider is down at the callback, writing nothing; back up, a new sign-in works", async () => {
    const { login } = personAtProvider();
    const flow = await startSignIn();
    const answer = await signInAtProvider(flow.authorizationUrl.href, login);
    await provider.stop();
    try {
      const before = await databaseFingerprint();
      expect(errorOf(await callback(answer, flow.flow))).toBe("oidc_unavailable");
      expect(writtenBesideCounters(before, await databaseFingerprint())).toEqual([]);
    } finally {
      await provider.restart();
    }
    expect(sessionTokenOf(await signInThroughProvider(login))).not.toBeNull();
  });
});

describe("linking the provider to an existing account, from its settings", () => {
  it("links it in the session that started it (never by email); then the provider signs in to that account", async () => {
    const prisma = await db();
    const local = await newAccount();
    const { login } = personAtProvider({ email: local.email });
    const link = await startLink(local.token);
    const response = await callback(await signInAtProvider(link.authorizationUrl.href, login), link.flow, local.token, { "user-agent": "Mozilla/5.0 test", [PEER_ADDRESS_HEADER]: "198.51.100.7" });
    expect(response.headers.get("location")).toBe(`${SITE}/settings/identity?linked=1`);
    expect(sessionTokenOf(response)).toBeNull();
    const user = await userOf(local.token);
    expect(await prisma.federatedIdentity.findMany({ where: { userId: user.id }, select: { subject: true, email: true } })).toEqual([{ subject: login, email: local.email }]);
    expect(await prisma.activityEvent.findMany({ where: { userId: user.id, kind: "provider_linked" }, select: { provider: true, observedIp: true, observedUserAgent: true } })).toEqual([
      { provider: provider.issuer, observedIp: "198.51.100.7", observedUserAgent: "Mozilla/5.0 test" },
    ]);
    expect((await userOf(sessionTokenOf(await signInThroughProvider(login))!)).id).toBe(user.id);
  });

  it("refuses a link finished in another session, or signed out, and an identity linked to another account, writing nothing", async () => {
    const first = await newAccount();
    const second = await newAccount();
    const { login } = personAtProvider();
    const taken = await startLink(first.token);
    await callback(await signInAtProvider(taken.authorizationUrl.href, login), taken.flow, first.token);

    const otherSession = sessionTokenOf(await signIn({ email: second.email, password: PASSWORD }))!;
    const link = await startLink(second.token);
    const answer = await signInAtProvider(link.authorizationUrl.href, login);
    const before = await databaseFingerprint();
    expect(errorOf(await callback(answer, link.flow, otherSession))).toBe("unauthorized");
    expect(errorOf(await callback(answer, link.flow))).toBe("unauthorized");
    expect(await databaseFingerprint()).toEqual(before);
    const refused = await callback(answer, link.flow, second.token);
    expect(refused.headers.get("location")).toBe(`${SITE}/settings/identity?error=oidc_already_linked`);
    expect(writtenBesideCounters(before, await databaseFingerprint())).toEqual([]);
  });

  it("needs a session to start", async () => {
    const response = await dispatch("GET", "/auth/oidc/link", { headers: FROM_OWN_PAGE });
    expect(response.headers.get("location")).toBe(`${SITE}/settings/identity?error=unauthorized`);
  });
});

describe("unlinking: only while another way to sign in remains", () => {
  const unlink = (session: string, id: string) =>
    dispatch("POST", `/settings/identity/${id}/unlink`, { body: "", headers: { origin: SITE, "content-type": "application/x-www-form-urlencoded", ...cookieHeader(session) } });

  async function providerAccount() {
    const { login } = personAtProvider();
    const session = sessionTokenOf(await signInThroughProvider(login))!;
    const user = await userOf(session);
    const prisma = await db();
    const { id } = await prisma.federatedIdentity.findFirstOrThrow({ where: { userId: user.id } });
    return { session, userId: user.id, identityId: id };
  }

  it("refuses to unlink an account's only way in, and to remove the passkey that is; with a passkey, unlinks and records it", async () => {
    const prisma = await db();
    const { session, userId, identityId } = await providerAccount();
    const before = await databaseFingerprint();
    expect(errorOf(await unlink(session, identityId))).toBe("last_sign_in_method");
    expect(await databaseFingerprint()).toEqual(before);

    const passkeyId = await addedPasskey(session, new SoftwareAuthenticator());
    const unlinked = await unlink(session, identityId);
    expect(unlinked.headers.get("location")).toBe(`${SITE}/settings/identity?unlinked=1`);
    expect(await prisma.federatedIdentity.count({ where: { userId } })).toBe(0);
    expect(await prisma.activityEvent.count({ where: { userId, kind: "provider_unlinked", subjectId: identityId } })).toBe(1);

    const kept = await databaseFingerprint();
    expect(errorOf(await removePasskeyForm(session, passkeyId))).toBe("last_sign_in_method");
    expect(await databaseFingerprint()).toEqual(kept);
  });

  // With neither a password nor a passkey, the provider's sign-in is the proof adding a passkey
  // needs, so it must be recent: a session held for longer (a stolen cookie) adds none.
  it("adds a first passkey to an account without a password only within 10 minutes of its sign-in", async () => {
    const prisma = await db();
    const { session, userId } = await providerAccount();
    const { sessionId } = (await sessionUser(session))!;
    await prisma.session.update({ where: { id: sessionId }, data: { createdAt: new Date(Date.now() - 11 * 60_000) } });
    const before = await databaseFingerprint();
    const refused = await registrationOptions(session, {});
    expect(refused.status).toBe(401);
    expect((await refused.json()).code).toBe("sign_in_again");
    expect(await databaseFingerprint()).toEqual(before);
    await prisma.session.update({ where: { id: sessionId }, data: { createdAt: new Date() } });
    await addedPasskey(session, new SoftwareAuthenticator());
    expect(await prisma.passkey.count({ where: { userId } })).toBe(1);
  });

  it("unlinks from an account with a password; another person's identity is not found", async () => {
    const local = await newAccount();
    const { login } = personAtProvider();
    const link = await startLink(local.token);
    await callback(await signInAtProvider(link.authorizationUrl.href, login), link.flow, local.token);
    const prisma = await db();
    const { id } = await prisma.federatedIdentity.findFirstOrThrow({ where: { subject: login } });
    const stranger = await newAccount();
    expect(errorOf(await unlink(stranger.token, id))).toBe("not_found");
    expect(errorOf(await unlink(local.token, id))).toBeNull();
    expect(await prisma.federatedIdentity.count({ where: { subject: login } })).toBe(0);
    // No longer linked: the provider's sign-in is another account's, made for it.
    const after = await userOf(sessionTokenOf(await signInThroughProvider(login))!);
    expect(after.id).not.toBe((await userOf(local.token)).id);
  });

  it("50 requests at once, half unlinking the provider and half removing the one passkey: one wins, the account keeps one way in", async () => {
    const prisma = await db();
    const { session, userId, identityId } = await providerAccount();
    const passkeyId = await addedPasskey(session, new SoftwareAuthenticator());
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? unlink(session, identityId) : removePasskeyForm(session, passkeyId))));
    for (const response of answers) expect(response.status).toBe(303);
    const left = { identities: await prisma.federatedIdentity.count({ where: { userId } }), passkeys: await prisma.passkey.count({ where: { userId } }) };
    expect(left.identities + left.passkeys).toBe(1);
    const events = await prisma.activityEvent.count({ where: { userId, kind: { in: ["provider_unlinked", "passkey_removed"] } } });
    expect(events).toBe(1);
    expect(answers.map(errorOf).filter((code) => code !== null && code !== "last_sign_in_method" && code !== "not_found" && code !== "unavailable")).toEqual([]);
  });
});

describe("the password sign-up keeps its rule", () => {
  it("an email the provider made an account for cannot be signed up again", async () => {
    const { login, email } = personAtProvider();
    await signInThroughProvider(login);
    expect(errorOf(await signUp({ email, password: PASSWORD }))).toBe("email_taken");
  });
});

// The platform maps a login to its own user by who the approver is at its provider: the link
// bearer and introspection carry the provider's issuer and the person's sub there.
describe("what the platform's API learns of the approver", () => {
  it("a provider account's link bearer and introspection name it at the provider; a local account's do not", async () => {
    const { login } = personAtProvider();
    const session = sessionTokenOf(await signInThroughProvider(login))!;
    const init = await createInit(inProcess);
    expect(await approvedIntoNewProject(inProcess, SITE, `${COOKIE_NAME}=${session}`, init.id, "Upstream")).toBe(true);
    const pickup = await pickUpToken(inProcess, init);
    const link = await createLink(inProcess, pickup.project_id, pickup.access_token);
    const upstream = { iss: provider.issuer, sub: login };
    expect(decodeJwt(link.bearer.slice("Bearer ".length))).toMatchObject({ account_id: (await userOf(session)).id, account_upstream: upstream });
    const credential = await resourceServer((await userOf(session)).id, [pickup.project_id]);
    for (const token of [pickup.access_token, link.bearer.slice("Bearer ".length)]) expect(await introspect(token, credential)).toMatchObject({ active: true, account_upstream: upstream });

    const local = await linkedClient(inProcess, { site: SITE, email: newEmail("local") });
    expect(decodeJwt(local.bearer.slice("Bearer ".length))).not.toHaveProperty("account_upstream");
    const prisma = await db();
    const owner = await prisma.user.findUniqueOrThrow({ where: { email: local.email }, select: { id: true } });
    expect(await introspect(local.accessToken, await resourceServer(owner.id, [local.projectId]))).not.toHaveProperty("account_upstream");
  });
});
