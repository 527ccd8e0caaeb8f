import { describe, expect, it } from "vitest";
import { listActivity } from "@/lib/activity/list-activity";
import { sessionUser } from "@/lib/auth/sessions";
import { db } from "@/lib/database/db";
import { hashSecret } from "@/lib/secrets";
import { PEER_ADDRESS_HEADER } from "@/server/request-context.mjs";
import { createdInit, getInitStatus, rateLimitCounters } from "../../helpers/api";
import { approve, changePasswordForm, newAccount, savePrivacyForm, sessionTokenOf, signIn } from "../../helpers/forms";
import { PASSWORD } from "../../helpers/journey.mjs";

// /settings/password and /settings/privacy. A password change signs
// out every session, this browser's own cookie included (a copy of it may be elsewhere): the
// browser gets a new session in its place, in the same transaction.

const NEW_PASSWORD = "a new password, long";

async function signedInTwice() {
  const { email, token } = await newAccount();
  const other = sessionTokenOf(await signIn({ email, password: PASSWORD }))!;
  const user = (await sessionUser(token))!;
  return { email, token, other, userId: user.id };
}

async function accountState(userId: string) {
  const prisma = await db();
  return {
    user: await prisma.user.findUniqueOrThrow({ where: { id: userId } }),
    sessions: await prisma.session.findMany({ where: { userId }, orderBy: { id: "asc" } }),
    events: await prisma.activityEvent.count({ where: { userId } }),
  };
}

const errorOf = (response: Response) => new URL(response.headers.get("location")!).searchParams.get("error");

describe("changing the password", () => {
  it("changes it, signs out every session, gives this browser a new one, and records it in the activity", async () => {
    const { email, token, other, userId } = await signedInTwice();
    const prisma = await db();
    const before = await prisma.session.findUniqueOrThrow({ where: { tokenHash: hashSecret(token) } });
    const response = await changePasswordForm(token, { current_password: PASSWORD, new_password: NEW_PASSWORD }, { "user-agent": "Mozilla/5.0 test", [PEER_ADDRESS_HEADER]: "198.51.100.4" });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("https://initlink.test/settings/password?changed=1");
    // This browser's cookie, and any copy of it, is signed out; the browser holds a new session
    // in its place, of the same sign-in and expiry.
    const renewed = sessionTokenOf(response);
    expect(renewed).not.toBeNull();
    expect(await sessionUser(token)).toBeNull();
    expect(await sessionUser(other)).toBeNull();
    expect(await prisma.session.findMany({ where: { userId } })).toEqual([
      expect.objectContaining({ tokenHash: hashSecret(renewed!), createdAt: before.createdAt, expiresAt: before.expiresAt, address: "198.51.100.4", userAgent: "Mozilla/5.0 test" }),
    ]);
    expect(errorOf(await signIn({ email, password: PASSWORD }))).toBe("invalid_credentials");
    expect(sessionTokenOf(await signIn({ email, password: NEW_PASSWORD }))).not.toBeNull();
    const events = (await listActivity(userId, undefined)).entries.filter((event) => event.kind === "password_changed");
    expect(events).toEqual([expect.objectContaining({ observedIp: "198.51.100.4", observedUserAgent: "Mozilla/5.0 test", decidedBy: email })]);
  });

  it.each([
    ["a wrong current password", { current_password: "not the password", new_password: NEW_PASSWORD }, {}, "wrong_password"],
    ["a new password that is too short", { current_password: PASSWORD, new_password: "short" }, {}, "invalid_request"],
    ["a new password equal to the current one", { current_password: PASSWORD, new_password: PASSWORD }, {}, "invalid_request"],
    ["no current password", { new_password: NEW_PASSWORD }, {}, "invalid_request"],
    ["a form from another site", { current_password: PASSWORD, new_password: NEW_PASSWORD }, { origin: "https://evil.example" }, "cross_site_request"],
  ])("refuses %s, changing nothing and signing no one out", async (_case, fields, headers, code) => {
    const { token, userId } = await signedInTwice();
    const before = await accountState(userId);
    const response = await changePasswordForm(token, fields, headers);
    expect(response.status).toBe(303);
    expect(errorOf(response)).toBe(code);
    expect(await accountState(userId)).toEqual(before);
  });

  it("counts wrong current passwords as sign-in failures of the account and address, and of the account", async () => {
    const { email, token } = await signedInTwice();
    const failures = async () => Object.fromEntries((await rateLimitCounters()).filter((counter) => counter.key.includes(email)).map((counter) => [counter.key.split(":")[0], counter.count]));
    expect(await failures()).toEqual({});
    expect(errorOf(await changePasswordForm(token, { current_password: "wrong password 1", new_password: NEW_PASSWORD }))).toBe("wrong_password");
    // The account's count is the one whose growing wait sign-in, this form and adding a passkey share.
    expect(await failures()).toEqual({ "sign-in-failures-account-address": 1, "sign-in-failures-account": 1 });
    // A right one gives its unit back.
    await changePasswordForm(token, { current_password: PASSWORD, new_password: NEW_PASSWORD });
    expect(await failures()).toEqual({ "sign-in-failures-account-address": 1, "sign-in-failures-account": 1 });
  });

  it("changes it once when 20 changes with the right password race", async () => {
    const { token, userId } = await signedInTwice();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        changePasswordForm(token, { current_password: PASSWORD, new_password: `${NEW_PASSWORD} ${index}` }, { [PEER_ADDRESS_HEADER]: `192.0.2.${index + 1}` }),
      ),
    );
    const changed = answers.filter((response) => errorOf(response) === null);
    expect(changed).toHaveLength(1);
    // The others lost the race, or found the account's password check taken (SIGN_INS_AT_ONCE_PER_ACCOUNT).
    expect(answers.filter((response) => ["wrong_password", "rate_limited"].includes(errorOf(response) ?? ""))).toHaveLength(19);
    const state = await accountState(userId);
    expect(state.sessions).toEqual([expect.objectContaining({ tokenHash: hashSecret(sessionTokenOf(changed[0])!) })]);
    expect((await listActivity(userId, undefined)).entries.filter((event) => event.kind === "password_changed")).toHaveLength(1);
  });
});

describe("whether clients learn the approver's email", () => {
  const APPROVE_NEW = { project: "new", name: "Private", code_confirmed: "yes" };
  const pickup = async (token: string) => {
    const init = await createdInit();
    await approve(init.id, token, APPROVE_NEW);
    return (await getInitStatus(init.id, { authorization: `Bearer ${init.secret}` })).json();
  };

  it("tells the client the project, not the person, unless the account allows it", async () => {
    const { email, token } = await newAccount();
    const hidden = await pickup(token);
    expect(hidden).toMatchObject({ status: "done", project: { name: "Private" }, approved_by: null });
    expect(JSON.stringify(hidden)).not.toContain(email);

    expect((await savePrivacyForm(token, { share_email: "on" })).headers.get("location")).toBe("https://initlink.test/settings/privacy?saved=1");
    expect(await pickup(token)).toMatchObject({ approved_by: { email } });

    await savePrivacyForm(token, {});
    expect(await pickup(token)).toMatchObject({ approved_by: null });
  });

  it.each([
    ["from another site", { share_email: "on" }, { origin: "https://evil.example" }, "cross_site_request"],
    ["with a value other than on", { share_email: "yes" }, {}, "invalid_request"],
  ])("refuses the setting %s, keeping it off", async (_case, fields, headers, code) => {
    const { token } = await newAccount();
    const user = (await sessionUser(token))!;
    expect(errorOf(await savePrivacyForm(token, fields, headers))).toBe(code);
    const prisma = await db();
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).shareEmailWithClients).toBe(false);
  });
});
