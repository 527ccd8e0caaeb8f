import { beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "@/lib/auth/passwords";
import { startSession } from "@/lib/auth/sessions";
import { config } from "@/lib/config";
import { db } from "@/lib/database/db";
import { signInIdentity } from "@/lib/identity/accounts";
import { randomId, randomSecret } from "@/lib/secrets";
import { changePasswordForm, cookieHeader, SITE, sessionTokenOf, signIn, signUp } from "../../helpers/forms";
import { databaseFingerprint } from "../../helpers/hostile";
import { dispatch } from "../../helpers/in-process";
import { newEmail, PASSWORD } from "../../helpers/journey.mjs";
import { registrationOptions } from "../../helpers/passkeys";

// LOCAL_PASSWORDS=off (lib/auth/account-policy.ts): no password signs up, signs in, is changed
// or proves the holder, and a stored one (from before passwords were turned off) is no way in.
// The route handlers with a real database, on SQLite and PostgreSQL.

const ISSUER = "https://login.example.com";

beforeAll(() => {
  // Read once, at the first request (lib/config.ts): set before any. The provider is never
  // reached here: its sign-in is taken past the provider (lib/identity/accounts.ts).
  Object.assign(process.env, { LOCAL_PASSWORDS: "off", OIDC_ISSUER: ISSUER, OIDC_CLIENT_ID: "initlink", OIDC_CLIENT_SECRET: "s3cret" });
});

/** An account made by the provider's sign-in, then given a password as if from before they were turned off. */
async function accountWithOldPassword(): Promise<{ email: string; session: string; userId: string }> {
  const email = newEmail("nopw");
  const flow = { purpose: "sign_in" as const, returnTo: "/", issuer: ISSUER, state: randomSecret(), nonce: randomSecret(), codeVerifier: randomSecret(), expiresAt: Date.now() + 600_000 };
  const origin = { address: "127.0.0.1", userAgent: null };
  const userId = await signInIdentity(flow, { issuer: ISSUER, subject: randomId(), email, emailVerified: true }, origin);
  await (await db()).user.update({ where: { id: userId }, data: { passwordHash: await hashPassword(config(), PASSWORD) } });
  return { email, session: await startSession(config(), userId, origin), userId };
}

describe("LOCAL_PASSWORDS=off", () => {
  it("refuses sign-up, sign-in and a password change with passwords_off, before any password work, and writes nothing", async () => {
    const { email, session } = await accountWithOldPassword();
    const before = await databaseFingerprint();
    const signedUp = await signUp({ email: newEmail("nopw"), password: PASSWORD });
    expect(signedUp.headers.get("location")).toBe(`${SITE}/signup?error=passwords_off`);
    const signedIn = await signIn({ email, password: PASSWORD });
    expect(signedIn.headers.get("location")).toBe(`${SITE}/signin?error=passwords_off`);
    expect(sessionTokenOf(signedIn)).toBeNull();
    const changed = await changePasswordForm(session, { current_password: PASSWORD, new_password: "another good password" });
    expect(changed.headers.get("location")).toBe(`${SITE}/settings/password?error=passwords_off`);
    expect(await databaseFingerprint()).toEqual(before);
  });

  it("takes a recent sign-in, not the stored password, as the proof for a first passkey", async () => {
    const { session } = await accountWithOldPassword();
    const options = await registrationOptions(session, {});
    expect(options.status).toBe(200);
    const byPassword = await registrationOptions(session, { current_password: PASSWORD });
    expect(byPassword.status).toBe(200);
  });

  it("counts a stored password as no way in: the account's one identity is not unlinked", async () => {
    const { session, userId } = await accountWithOldPassword();
    const prisma = await db();
    const { id } = await prisma.federatedIdentity.findFirstOrThrow({ where: { userId } });
    const response = await dispatch("POST", `/settings/identity/${id}/unlink`, { body: "", headers: { origin: SITE, "content-type": "application/x-www-form-urlencoded", ...cookieHeader(session) } });
    expect(response.headers.get("location")).toBe(`${SITE}/settings/identity?error=last_sign_in_method`);
    expect(await prisma.federatedIdentity.count({ where: { id } })).toBe(1);
  });
});
