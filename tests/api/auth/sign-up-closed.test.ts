import { beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "@/lib/auth/passwords";
import { config } from "@/lib/config";
import { db } from "@/lib/database/db";
import { signInIdentity } from "@/lib/identity/accounts";
import { randomId, randomSecret } from "@/lib/secrets";
import { sessionTokenOf, signIn, signUp } from "../../helpers/forms";
import { databaseFingerprint } from "../../helpers/hostile";
import { newEmail, PASSWORD } from "../../helpers/journey.mjs";

// SIGN_UP=off (lib/auth/account-policy.ts): nobody makes an account with a password; the
// identity provider's first sign-in still makes one, and passwords still sign in. The route
// handlers with a real database, on SQLite and PostgreSQL.

const ISSUER = "https://login.example.com";

beforeAll(() => {
  // Read once, at the first request (lib/config.ts): set before any. The provider is never
  // reached here: its first sign-in is taken past the provider (lib/identity/accounts.ts).
  Object.assign(process.env, { SIGN_UP: "off", OIDC_ISSUER: ISSUER, OIDC_CLIENT_ID: "initlink", OIDC_CLIENT_SECRET: "s3cret" });
});

describe("SIGN_UP=off", () => {
  it("refuses a password sign-up with sign_up_closed and writes nothing", async () => {
    const before = await databaseFingerprint();
    const response = await signUp({ email: newEmail("closed"), password: PASSWORD }, "?returnTo=%2Factivity");
    expect(response.headers.get("location")).toBe("https://initlink.test/signup?returnTo=%2Factivity&error=sign_up_closed");
    expect(sessionTokenOf(response)).toBeNull();
    expect(await databaseFingerprint()).toEqual(before);
  });

  it("still makes an account at the provider's first sign-in", async () => {
    const subject = randomId();
    const flow = { purpose: "sign_in" as const, returnTo: "/", issuer: ISSUER, state: randomSecret(), nonce: randomSecret(), codeVerifier: randomSecret(), expiresAt: Date.now() + 600_000 };
    const email = newEmail("closed");
    await signInIdentity(flow, { issuer: ISSUER, subject, email, emailVerified: true }, { address: "127.0.0.1", userAgent: null });
    expect(await (await db()).user.count({ where: { email } })).toBe(1);
  });

  it("still signs in an account that has a password", async () => {
    const email = newEmail("closed");
    await (await db()).user.create({ data: { id: randomId(), email, passwordHash: await hashPassword(config(), PASSWORD), createdAt: new Date() } });
    const response = await signIn({ email, password: PASSWORD });
    expect(response.headers.get("location")).toBe("https://initlink.test/");
    expect(sessionTokenOf(response)).not.toBeNull();
  });
});
