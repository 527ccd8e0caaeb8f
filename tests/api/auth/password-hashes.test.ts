import { randomBytes, scryptSync } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/database/db";
import { randomId } from "@/lib/secrets";
import { newEmail } from "../../helpers/journey.mjs";
import { sessionTokenOf, signIn } from "../../helpers/forms";

// Passwords are hashed with scrypt at OWASP's cost (N=2^17, r=8, p=1); a hash made at the
// older, lower cost (N=2^15) still verifies, and is replaced at today's cost on the next
// successful sign-in (lib/auth/upgrade-password-hash.ts).

// The production cost, not the suites' low one (vitest.config.ts): this file asserts it.
vi.hoisted(() => {
  process.env.TEST_PASSWORD_COST = "full";
});

const PASSWORD = "correct horse battery";

/** A hash as the service stored it before the cost was raised: scrypt$N$r$p$salt$key. */
function legacyHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize("NFKC"), salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  return ["scrypt", 2 ** 15, 8, 1, salt.toString("base64url"), key.toString("base64url")].join("$");
}

async function legacyAccount() {
  const prisma = await db();
  const email = newEmail("legacy");
  const passwordHash = legacyHash(PASSWORD);
  const user = await prisma.user.create({ data: { id: randomId(), email, passwordHash, createdAt: new Date() } });
  return { email, userId: user.id, passwordHash };
}

const storedHash = async (userId: string) => (await (await db()).user.findUniqueOrThrow({ where: { id: userId } })).passwordHash;

describe("password hashes", () => {
  it("signs in with a hash of the older cost and replaces it with one at N=2^17, r=8, p=1", async () => {
    const account = await legacyAccount();
    const first = await signIn({ email: account.email, password: PASSWORD });
    expect(first.status).toBe(303);
    expect(sessionTokenOf(first)).not.toBeNull();
    const upgraded = await storedHash(account.userId);
    expect(upgraded).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    // The new hash verifies the same password, and is not replaced again.
    const second = await signIn({ email: account.email, password: PASSWORD });
    expect(sessionTokenOf(second)).not.toBeNull();
    expect(await storedHash(account.userId)).toBe(upgraded);
  });

  it("leaves an older hash as it is after a wrong password", async () => {
    const account = await legacyAccount();
    const response = await signIn({ email: account.email, password: "wrong horse battery" });
    expect(new URL(response.headers.get("location") ?? "").searchParams.get("error")).toBe("invalid_credentials");
    expect(await storedHash(account.userId)).toBe(account.passwordHash);
  });
});
