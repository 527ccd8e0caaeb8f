import { describe, expect, it } from "vitest";
import { sessionUser } from "@/lib/auth/sessions";
import { db } from "@/lib/database/db";
import { sweep } from "@/lib/maintenance/sweep";
import { config } from "@/lib/config";
import { PASSKEYS_PER_ACCOUNT } from "@/lib/limits/rules";
import { CHALLENGE_LIFETIME_MS } from "@/lib/passkeys/challenges";
import { randomId } from "@/lib/secrets";
import { passkeysToReview, RECENT_PASSKEY_MS } from "@/lib/passkeys/manage-passkeys";
import { createdInit, getInitStatus, rateLimitCounters } from "../../helpers/api";
import { approve, cookieHeader, newAccount, sessionTokenOf, SITE } from "../../helpers/forms";
import { dispatch } from "../../helpers/in-process";
import { PASSWORD } from "../../helpers/journey.mjs";
import {
  addedPasskey,
  addPasskeyForm,
  approvalsSettingForm,
  passkeySignInForm,
  proofBody,
  registrationOptions,
  removePasskeyForm,
  signInOptions,
  SoftwareAuthenticator,
  stepUpAssertion,
  stepUpOptions,
} from "../../helpers/passkeys";

// Passkeys (lib/passkeys/): adding one, signing in with one, and "approvals need a passkey".
// Every answer is made by a software authenticator and verified by SimpleWebAuthn unchanged.

const PHISHING_ORIGIN = "https://initlink.test.phish.example";
const APPROVE_NEW = { project: "new", name: "My app", code_confirmed: "yes" };
const errorIn = (response: Response) => new URL(response.headers.get("location") ?? "/", SITE).searchParams.get("error");

async function passkeyRows(userId?: string) {
  const prisma = await db();
  return prisma.passkey.findMany({ where: userId === undefined ? {} : { userId }, orderBy: { id: "asc" } });
}

async function userIdOf(session: string): Promise<string> {
  const user = await sessionUser(session);
  if (user === null) throw new Error("no such session");
  return user.id;
}

/** An account with one passkey and "approvals need a passkey" on. */
async function guardedAccount() {
  const account = await newAccount();
  const authenticator = new SoftwareAuthenticator();
  const passkeyId = await addedPasskey(account.token, authenticator);
  expect((await approvalsSettingForm(account.token, { required: "on" })).headers.get("location")).toBe(`${SITE}/settings/passkeys?approvals=on`);
  return { ...account, authenticator, passkeyId };
}

describe("adding a passkey (W3C WebAuthn Level 3 §7.1)", () => {
  it("stores the credential with its name and counter, records it, and uses the challenge up", async () => {
    const { token } = await newAccount();
    const authenticator = new SoftwareAuthenticator();
    const optionsResponse = await registrationOptions(token, { current_password: PASSWORD });
    expect(optionsResponse.status).toBe(200);
    const options = await optionsResponse.json();
    // A discoverable credential (sign-in without an email), user verification, this RP ID.
    expect(options).toMatchObject({ rp: { id: "initlink.test" }, authenticatorSelection: { residentKey: "required", userVerification: "required" }, attestation: "none" });
    const registration = authenticator.register(options);
    const response = await addPasskeyForm(token, "work laptop", registration);
    expect(response.status).toBe(303);
    const [stored] = await passkeyRows(await userIdOf(token));
    expect(response.headers.get("location")).toBe(`${SITE}/settings/passkeys?added=${stored.id}`);
    expect(stored).toMatchObject({ credentialId: registration.id, name: "work laptop", counter: 0n, transports: "internal" });
    const prisma = await db();
    expect(await prisma.activityEvent.findFirst({ where: { subjectId: stored.id } })).toMatchObject({ kind: "passkey_added", passkeyName: "work laptop" });
    // The challenge was single use: the same answer again is refused.
    expect(errorIn(await addPasskeyForm(token, "again", registration))).toBe("passkey_rejected");
    expect(await passkeyRows(stored.userId)).toHaveLength(1);
  });

  it.each([
    ["made on another origin", { origin: PHISHING_ORIGIN }],
    ["made without user verification", { userVerified: false }],
  ])("refuses a registration %s, storing nothing", async (_case, ceremony) => {
    const { token } = await newAccount();
    const options = await (await registrationOptions(token, { current_password: PASSWORD })).json();
    const response = await addPasskeyForm(token, "laptop", new SoftwareAuthenticator().register(options, ceremony));
    expect(response.status).toBe(303);
    expect(errorIn(response)).toBe("passkey_rejected");
    expect(await passkeyRows(await userIdOf(token))).toEqual([]);
  });

  it("refuses a registration answering another account's challenge", async () => {
    const mine = await newAccount();
    const theirs = await newAccount();
    const options = await (await registrationOptions(theirs.token, { current_password: PASSWORD })).json();
    expect(errorIn(await addPasskeyForm(mine.token, "laptop", new SoftwareAuthenticator().register(options)))).toBe("passkey_rejected");
    expect(await passkeyRows(await userIdOf(mine.token))).toEqual([]);
  });

  it("refuses a form whose credential is not a WebAuthn credential, or that has no name", async () => {
    const { token } = await newAccount();
    const options = await (await registrationOptions(token, { current_password: PASSWORD })).json();
    expect(errorIn(await addPasskeyForm(token, "laptop", { id: "x" }))).toBe("invalid_request");
    expect(errorIn(await addPasskeyForm(token, "  ", new SoftwareAuthenticator().register(options)))).toBe("invalid_request");
    expect(await passkeyRows(await userIdOf(token))).toEqual([]);
  });

  it("refuses a passkey past PASSKEYS_PER_ACCOUNT", async () => {
    const { token } = await newAccount();
    const authenticator = new SoftwareAuthenticator();
    const first = await addedPasskey(token, authenticator, "key 0");
    // The others as rows: each added through the form would cost two challenges (its proof's and its own).
    const prisma = await db();
    const { userId, publicKey } = await prisma.passkey.findUniqueOrThrow({ where: { id: first } });
    for (let added = 1; added < PASSKEYS_PER_ACCOUNT; added++) {
      await prisma.passkey.create({ data: { id: randomId(), userId, credentialId: randomId(), publicKey, counter: 0n, name: `key ${added}`, createdAt: new Date() } });
    }
    const options = await (await registrationOptions(token, await proofBody(token, { passkey: authenticator }))).json();
    expect(errorIn(await addPasskeyForm(token, "one more", authenticator.register(options)))).toBe("passkey_limit_reached");
    expect(await passkeyRows(await userIdOf(token))).toHaveLength(PASSKEYS_PER_ACCOUNT);
  });

  it("refuses options to someone signed out, from another site, or for nothing it knows", async () => {
    expect((await registrationOptions("no-such-session", { current_password: PASSWORD })).status).toBe(401);
    const { token } = await newAccount();
    const crossSite = await dispatch("POST", "/settings/passkeys/options", { headers: { origin: "https://evil.example", ...cookieHeader(token) } });
    expect(crossSite.status).toBe(403);
    expect((await crossSite.json()).code).toBe("cross_site_request");
    const unknown = await stepUpOptions(token, { kind: "nothing" });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).code).toBe("invalid_request");
  });
});

// A session alone must not add a passkey: it would sign in after a password change and confirm
// approvals as the person's own passkeys do (docs/security.md, Passkey step-up).
describe("the proof adding a passkey needs", () => {
  const registerChallenges = async (session: string) => (await db()).passkeyChallenge.count({ where: { purpose: "register", userId: await userIdOf(session) } });
  const refusal = async (response: Response) => [response.status, (await response.json()).code];

  it("refuses the options to a session alone, handing out no challenge: the password on an account without a passkey", async () => {
    const { email, token } = await newAccount();
    expect(await refusal(await registrationOptions(token, {}))).toEqual([401, "password_required"]);
    expect(await refusal(await registrationOptions(token, { current_password: "not the password" }))).toEqual([401, "wrong_password"]);
    // A wrong password counts as a failed sign-in of the account would (lib/auth/password-check.ts).
    expect((await rateLimitCounters("sign-in-failures-account:")).filter((counter) => counter.key.endsWith(email))).toEqual([expect.objectContaining({ count: 1 })]);
    // An assertion is no proof on an account without a passkey: it has none to make one with.
    const stranger = new SoftwareAuthenticator();
    await addedPasskey((await newAccount()).token, stranger);
    expect(await refusal(await registrationOptions(token, await proofBody(token, { passkey: stranger })))).toEqual([401, "password_required"]);
    expect(await registerChallenges(token)).toBe(0);
    expect(await passkeyRows(await userIdOf(token))).toEqual([]);
  });

  it("on an account with a passkey, takes only an assertion of one of its passkeys made for adding one, once", async () => {
    const { token, authenticator } = await guardedAccount();
    // A passkey of the attacker's own account.
    const attacker = new SoftwareAuthenticator();
    await addedPasskey((await newAccount()).token, attacker);
    expect(await refusal(await registrationOptions(token, {}))).toEqual([403, "passkey_required"]);
    // The password is not enough once there is a passkey: whoever holds both a session and the password is no proof of the device.
    expect(await refusal(await registrationOptions(token, { current_password: PASSWORD }))).toEqual([403, "passkey_required"]);
    const forSettings = JSON.parse(await stepUpAssertion(token, authenticator, { kind: "settings" }));
    const forInit = JSON.parse(await stepUpAssertion(token, authenticator, { kind: "init", id: "x" }));
    const forSignIn = authenticator.assert(await (await signInOptions()).json());
    const byAnother = attacker.assert(await (await stepUpOptions(token, { kind: "add_passkey" })).json());
    const elsewhere = authenticator.assert(await (await stepUpOptions(token, { kind: "add_passkey" })).json(), { origin: PHISHING_ORIGIN });
    const unverified = authenticator.assert(await (await stepUpOptions(token, { kind: "add_passkey" })).json(), { userVerified: false });
    for (const assertion of [forSettings, forInit, forSignIn, byAnother, elsewhere, unverified]) {
      expect(await refusal(await registrationOptions(token, { passkey_assertion: assertion }))).toEqual([403, "passkey_rejected"]);
    }
    expect(await registerChallenges(token)).toBe(0);
    const proof = await proofBody(token, { passkey: authenticator });
    const options = await registrationOptions(token, proof);
    expect(options.status).toBe(200);
    expect(await refusal(await registrationOptions(token, proof))).toEqual([403, "passkey_rejected"]);
    expect(await registerChallenges(token)).toBe(1);
    // With the proof, the person's new device is added.
    expect(errorIn(await addPasskeyForm(token, "phone", new SoftwareAuthenticator().register(await options.json())))).toBeNull();
    expect(await passkeyRows(await userIdOf(token))).toHaveLength(2);
  });

  it("lets a stolen session neither add a passkey nor, with it, approve", async () => {
    const { token } = await guardedAccount();
    const attacker = new SoftwareAuthenticator();
    await addedPasskey((await newAccount()).token, attacker);
    const init = await createdInit();
    // The attacker's own authenticator answers the step-up: not a passkey of this account.
    const theirs = attacker.assert(await (await stepUpOptions(token, { kind: "add_passkey" })).json());
    expect((await registrationOptions(token, { passkey_assertion: theirs })).status).toBe(403);
    expect(errorIn(await approve(init.id, token, { ...APPROVE_NEW, passkey_assertion: await stepUpAssertion(token, attacker, { kind: "init", id: init.id }) }))).toBe("passkey_rejected");
    expect((await (await getInitStatus(init.id)).json()).status).toBe("pending");
    expect(await passkeyRows(await userIdOf(token))).toHaveLength(1);
  });

  it("names the passkeys added in the last day for the review after a password change or signing out", async () => {
    const { token, passkeyId } = await guardedAccount();
    const userId = await userIdOf(token);
    const prisma = await db();
    const { createdAt } = await prisma.passkey.findUniqueOrThrow({ where: { id: passkeyId } });
    const review = await passkeysToReview(userId, createdAt.getTime() + RECENT_PASSKEY_MS - 1);
    expect(review.passkeys.map((passkey) => passkey.id)).toEqual([passkeyId]);
    expect(review.recent.map((passkey) => passkey.name)).toEqual(["laptop"]);
    expect((await passkeysToReview(userId, createdAt.getTime() + RECENT_PASSKEY_MS)).recent).toEqual([]);
  });
});

describe("signing in with a passkey", () => {
  it("starts a session for the passkey's account, with no email or password, and keeps the counter", async () => {
    const { token } = await newAccount();
    const authenticator = new SoftwareAuthenticator();
    const passkeyId = await addedPasskey(token, authenticator);
    const options = await (await signInOptions()).json();
    expect(options).toMatchObject({ rpId: "initlink.test", userVerification: "required" });
    expect(options.allowCredentials ?? []).toEqual([]);
    const response = await passkeySignInForm(authenticator.assert(options), "?returnTo=%2Fprojects");
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`${SITE}/projects`);
    const session = sessionTokenOf(response);
    expect(session).not.toBeNull();
    expect((await sessionUser(session ?? undefined))?.id).toBe(await userIdOf(token));
    const prisma = await db();
    expect(await prisma.passkey.findUniqueOrThrow({ where: { id: passkeyId } })).toMatchObject({ counter: 1n, lastUsedAt: expect.any(Date) });
  });

  it("refuses an assertion made for another origin: a phishing page cannot relay it", async () => {
    const { token } = await newAccount();
    const authenticator = new SoftwareAuthenticator();
    await addedPasskey(token, authenticator);
    const options = await (await signInOptions()).json();
    const response = await passkeySignInForm(authenticator.assert(options, { origin: PHISHING_ORIGIN }));
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`${SITE}/signin?error=passkey_rejected`);
    expect(sessionTokenOf(response)).toBeNull();
  });

  it("refuses a replayed assertion, one without user verification, a removed passkey and a counter that went back", async () => {
    const { token } = await newAccount();
    const authenticator = new SoftwareAuthenticator();
    const passkeyId = await addedPasskey(token, authenticator);
    const used = authenticator.assert(await (await signInOptions()).json());
    expect(sessionTokenOf(await passkeySignInForm(used))).not.toBeNull();
    expect(errorIn(await passkeySignInForm(used))).toBe("passkey_rejected");
    expect(errorIn(await passkeySignInForm(authenticator.assert(await (await signInOptions()).json(), { userVerified: false })))).toBe("passkey_rejected");
    // A clone of the authenticator, behind the counter the service saw.
    authenticator.credentials[0].counter = 0;
    expect(errorIn(await passkeySignInForm(authenticator.assert(await (await signInOptions()).json())))).toBe("passkey_rejected");
    // Two more passkeys, so the first may go; once removed it signs nobody in.
    await addedPasskey(token, new SoftwareAuthenticator(), "phone", { passkey: authenticator });
    expect((await removePasskeyForm(token, passkeyId)).headers.get("location")).toBe(`${SITE}/settings/passkeys?removed=1`);
    authenticator.credentials[0].counter = 10;
    expect(errorIn(await passkeySignInForm(authenticator.assert(await (await signInOptions()).json())))).toBe("passkey_rejected");
  });

  // W3C WebAuthn Level 3 §7.2 step 6: the user handle names the passkey's own account.
  it("signs in with the user handle of the passkey's account, and refuses another account's", async () => {
    const { token } = await newAccount();
    const other = await newAccount();
    const authenticator = new SoftwareAuthenticator();
    await addedPasskey(token, authenticator);
    const mine = authenticator.assert(await (await signInOptions()).json(), { userHandle: await userIdOf(token) });
    expect(sessionTokenOf(await passkeySignInForm(mine))).not.toBeNull();
    const theirs = authenticator.assert(await (await signInOptions()).json(), { userHandle: await userIdOf(other.token) });
    expect(errorIn(await passkeySignInForm(theirs))).toBe("passkey_rejected");
  });

  it("lets one of 20 concurrent sign-ins with the same assertion through", async () => {
    const { token } = await newAccount();
    const authenticator = new SoftwareAuthenticator();
    await addedPasskey(token, authenticator);
    const assertion = authenticator.assert(await (await signInOptions()).json());
    const responses = await Promise.all(Array.from({ length: 20 }, () => passkeySignInForm(assertion)));
    expect(responses.filter((response) => sessionTokenOf(response) !== null)).toHaveLength(1);
    expect(responses.filter((response) => errorIn(response) === "passkey_rejected")).toHaveLength(19);
  });

  it("refuses an expired challenge", async () => {
    const { token } = await newAccount();
    const authenticator = new SoftwareAuthenticator();
    await addedPasskey(token, authenticator);
    const options = await (await signInOptions()).json();
    const prisma = await db();
    await prisma.passkeyChallenge.updateMany({ where: { purpose: "sign_in" }, data: { expiresAt: new Date(Date.now() - 1) } });
    expect(errorIn(await passkeySignInForm(authenticator.assert(options)))).toBe("passkey_rejected");
  });
});

describe("approvals need a passkey (docs/security.md, Passkey step-up)", () => {
  it("refuses an approval without a passkey assertion, and the init stays pending", async () => {
    const { token } = await guardedAccount();
    const init = await createdInit();
    const response = await approve(init.id, token, APPROVE_NEW);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`${SITE}/init/${init.id}?error=passkey_required`);
    expect((await (await getInitStatus(init.id)).json()).status).toBe("pending");
  });

  it("approves with a user-verified assertion made for this very init", async () => {
    const { token, authenticator, passkeyId } = await guardedAccount();
    const init = await createdInit();
    const assertion = await stepUpAssertion(token, authenticator, { kind: "init", id: init.id });
    const response = await approve(init.id, token, { ...APPROVE_NEW, passkey_assertion: assertion });
    expect(response.headers.get("location")).toBe(`${SITE}/init/${init.id}`);
    expect((await (await getInitStatus(init.id)).json()).status).toBe("done");
    const prisma = await db();
    expect(await prisma.passkey.findUniqueOrThrow({ where: { id: passkeyId } })).toMatchObject({ counter: 1n });
  });

  it.each([
    ["made for another init", async (token: string, authenticator: SoftwareAuthenticator) => stepUpAssertion(token, authenticator, { kind: "init", id: (await createdInit()).id })],
    ["made on another origin (relayed by a phishing page)", (token: string, authenticator: SoftwareAuthenticator, initId: string) => stepUpAssertion(token, authenticator, { kind: "init", id: initId }, { origin: PHISHING_ORIGIN })],
    ["made without user verification", (token: string, authenticator: SoftwareAuthenticator, initId: string) => stepUpAssertion(token, authenticator, { kind: "init", id: initId }, { userVerified: false })],
    ["answering a passkey sign-in's challenge", async (_token: string, authenticator: SoftwareAuthenticator) => JSON.stringify(authenticator.assert(await (await signInOptions()).json()))],
    ["that is not JSON", async () => "{not json"],
  ])("refuses an assertion %s, and the init stays pending", async (_case, make) => {
    const { token, authenticator } = await guardedAccount();
    const init = await createdInit();
    const response = await approve(init.id, token, { ...APPROVE_NEW, passkey_assertion: await make(token, authenticator, init.id) });
    expect(errorIn(response)).toBe(_case === "that is not JSON" ? "invalid_request" : "passkey_rejected");
    expect((await (await getInitStatus(init.id)).json()).status).toBe("pending");
  });

  it("refuses another account's passkey", async () => {
    const mine = await guardedAccount();
    const theirs = await guardedAccount();
    const init = await createdInit();
    const options = await (await stepUpOptions(mine.token, { kind: "init", id: init.id })).json();
    const assertion = JSON.stringify(theirs.authenticator.assert(options));
    expect(errorIn(await approve(init.id, mine.token, { ...APPROVE_NEW, passkey_assertion: assertion }))).toBe("passkey_rejected");
  });

  it("offers the account's own passkeys and binds the challenge for CHALLENGE_LIFETIME_MS", async () => {
    const { token, authenticator } = await guardedAccount();
    const before = Date.now();
    const options = await (await stepUpOptions(token, { kind: "init", id: "some-init" })).json();
    expect(options.allowCredentials).toEqual([{ id: authenticator.credentials[0].id.toString("base64url"), type: "public-key", transports: ["internal"] }]);
    const prisma = await db();
    const [challenge] = await prisma.passkeyChallenge.findMany({ where: { subject: "init:some-init" } });
    expect(challenge).toMatchObject({ purpose: "step_up", userId: await userIdOf(token) });
    expect(challenge.expiresAt.getTime()).toBeGreaterThanOrEqual(before + CHALLENGE_LIFETIME_MS);
    expect(challenge.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + CHALLENGE_LIFETIME_MS);
    // The sweep deletes it once it has expired.
    expect((await sweep(config(), challenge.expiresAt.getTime() + 1)).passkeyChallenges).toBeGreaterThanOrEqual(1);
    expect(await prisma.passkeyChallenge.count({ where: { subject: "init:some-init" } })).toBe(0);
  });

  it("cannot be turned on without a passkey, nor off without one", async () => {
    const bare = await newAccount();
    expect(errorIn(await approvalsSettingForm(bare.token, { required: "on" }))).toBe("no_passkey");
    const { token, authenticator } = await guardedAccount();
    expect(errorIn(await approvalsSettingForm(token, { required: "off" }))).toBe("passkey_required");
    // An assertion for an approval does not turn the setting off.
    const forInit = await stepUpAssertion(token, authenticator, { kind: "init", id: "x" });
    expect(errorIn(await approvalsSettingForm(token, { required: "off", passkey_assertion: forInit }))).toBe("passkey_rejected");
    const forSettings = await stepUpAssertion(token, authenticator, { kind: "settings" });
    expect((await approvalsSettingForm(token, { required: "off", passkey_assertion: forSettings })).headers.get("location")).toBe(`${SITE}/settings/passkeys?approvals=off`);
    const init = await createdInit();
    expect((await approve(init.id, token, APPROVE_NEW)).headers.get("location")).toBe(`${SITE}/init/${init.id}`);
  });

  it("keeps the last passkey while approvals need one, and records removals", async () => {
    const { token, passkeyId, authenticator } = await guardedAccount();
    expect(errorIn(await removePasskeyForm(token, passkeyId))).toBe("last_passkey");
    const second = await addedPasskey(token, new SoftwareAuthenticator(), "phone", { passkey: authenticator });
    expect(errorIn(await removePasskeyForm(token, passkeyId))).toBeNull();
    expect((await passkeyRows(await userIdOf(token))).map((row) => row.id)).toEqual([second]);
    const prisma = await db();
    expect(await prisma.activityEvent.findFirst({ where: { subjectId: passkeyId, kind: "passkey_removed" } })).toMatchObject({ passkeyName: "laptop" });
    // Another account's passkey is not found.
    const other = await newAccount();
    expect(errorIn(await removePasskeyForm(other.token, second))).toBe("not_found");
  });
});
