import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/database/db";
import { hashSecret } from "@/lib/secrets";
import { databaseSnapshot } from "../../helpers/api";
import { dispatch } from "../../helpers/in-process";
import { COOKIE_NAME, newAccount, sessionTokenOf, signIn, signOut, signUp } from "../../helpers/forms";

// The production cost, not the suites' low one (vitest.config.ts): a sign-up stores it.
vi.hoisted(() => {
  process.env.TEST_PASSWORD_COST = "full";
});

const PASSWORD = "correct horse battery";

async function everything() {
  const prisma = await db();
  return { ...(await databaseSnapshot()), users: await prisma.user.findMany(), sessions: await prisma.session.findMany() };
}

describe("sign up, sign in, sign out", () => {
  it("signs up, starts a session with a secure cookie and returns to a same-site path", async () => {
    const response = await signUp({ email: "  Ada@Example.com ", password: PASSWORD }, "?returnTo=%2Finit%2Fabc");
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("https://initlink.test/init/abc");
    const cookie = response.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(new RegExp(`^${COOKIE_NAME}=[A-Za-z0-9_-]{43}; Path=/; HttpOnly; SameSite=Lax; Max-Age=2592000; Secure$`));
    const prisma = await db();
    const user = await prisma.user.findUniqueOrThrow({ where: { email: "ada@example.com" } });
    expect(user.passwordHash).toMatch(/^scrypt\$131072\$8\$1\$/);
    const token = sessionTokenOf(response)!;
    const session = await prisma.session.findFirstOrThrow({ where: { userId: user.id } });
    expect(session.tokenHash).toBe(hashSecret(token));
    expect(JSON.stringify(session)).not.toContain(token);
  });

  it.each([
    ["//evil.example/x", "https://initlink.test/"],
    ["https://evil.example/", "https://initlink.test/"],
    ["/\\evil.example", "https://initlink.test/"],
    ["/projects?x=1", "https://initlink.test/projects?x=1"],
  ])("accepts only same-site paths as return targets: %s", async (returnTo, location) => {
    const { email } = await newAccount();
    const response = await signIn({ email, password: PASSWORD }, `?returnTo=${encodeURIComponent(returnTo)}`);
    expect(response.headers.get("location")).toBe(location);
  });

  it("gives a new session on every sign-in, and sign-out deletes it", async () => {
    const { email, token: first } = await newAccount();
    const second = sessionTokenOf(await signIn({ email, password: PASSWORD }))!;
    expect(second).not.toBe(first);
    const out = await signOut(second);
    expect(out.status).toBe(303);
    expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
    const prisma = await db();
    expect(await prisma.session.count({ where: { tokenHash: hashSecret(second) } })).toBe(0);
    expect(await prisma.session.count({ where: { tokenHash: hashSecret(first) } })).toBe(1);
  });

  // No user enumeration: an unknown email and a wrong password read the same.
  it("answers a wrong password and an unknown email alike", async () => {
    const { email } = await newAccount();
    const wrong = await signIn({ email, password: "not the password" });
    const unknown = await signIn({ email: "nobody@example.com", password: "not the password" });
    expect(wrong.headers.get("location")).toBe("https://initlink.test/signin?error=invalid_credentials");
    expect(unknown.headers.get("location")).toBe(wrong.headers.get("location"));
    expect(sessionTokenOf(wrong)).toBeNull();
  });

  it.each([
    ["a short password", { email: "short@example.com", password: "123456789" }, "invalid_request"],
    ["a bad email", { email: "not-an-email", password: PASSWORD }, "invalid_request"],
    ["no password", { email: "x@example.com" }, "invalid_request"],
  ])("rejects sign-up with %s and writes nothing", async (_label, fields, code) => {
    const before = await everything();
    const response = await signUp(fields as Record<string, string>, "?returnTo=%2Finit%2Fabc");
    expect(response.headers.get("location")).toBe(`https://initlink.test/signup?returnTo=%2Finit%2Fabc&error=${code}`);
    expect(await everything()).toEqual(before);
  });

  it("refuses a second account for the same email", async () => {
    const { email } = await newAccount();
    const response = await signUp({ email: email.toUpperCase(), password: PASSWORD });
    expect(response.headers.get("location")).toBe("https://initlink.test/signup?error=email_taken");
  });

  it("refuses a form posted from another site and writes nothing", async () => {
    const before = await everything();
    const response = await signUp({ email: "csrf@example.com", password: PASSWORD }, "", { origin: "https://evil.example" });
    expect(response.headers.get("location")).toBe("https://initlink.test/signup?error=cross_site_request");
    expect(await everything()).toEqual(before);
  });
});

describe("the cross-site check", () => {
  // Chromium sends Origin: null from pages with Referrer-Policy: no-referrer.
  it("accepts Origin: null only with Sec-Fetch-Site: same-origin", async () => {
    const ok = await signUp({ email: "nullorigin@example.com", password: PASSWORD }, "", { origin: "null", "sec-fetch-site": "same-origin" });
    expect(sessionTokenOf(ok)).not.toBeNull();
    const refused = await signUp({ email: "nullorigin2@example.com", password: PASSWORD }, "", { origin: "null", "sec-fetch-site": "cross-site" });
    expect(refused.headers.get("location")).toBe("https://initlink.test/signup?error=cross_site_request");
  });
});

// Without OIDC_ISSUER (this file sets none) there is no identity provider to sign in with.
describe("signing in through an identity provider, none set up", () => {
  it("refuses the button and the callback with oidc_not_configured, back to the sign-in page", async () => {
    for (const path of ["/auth/oidc/start?returnTo=%2Fdevice", "/auth/oidc/callback?code=x&state=y"]) {
      const response = await dispatch("GET", path, { headers: { "sec-fetch-site": "same-origin" } });
      expect(response.status).toBe(303);
      expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe("oidc_not_configured");
    }
  });
});
