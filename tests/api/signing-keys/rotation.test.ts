import { decodeProtectedHeader } from "jose";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { config } from "@/lib/config";
import { db } from "@/lib/database/db";
import { runMaintenance } from "@/lib/maintenance/maintenance";
import { createAccessToken } from "@/lib/access-tokens/issue-access-token";
import { approvedClient, getProject, linked, publishedJwks } from "../../helpers/links";

// Key rotation over two months of a faked clock (only Date is faked; the database is real).
// Defaults: the signing key rotates after 30 days, a bearer lives 30 days, verifiers may
// cache the JWKS for 5 minutes. Rotation is the maintenance timer's work (runMaintenance),
// never a request's.

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

// Both suites move the clock.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("signing key rotation", () => {
  it("keeps old keys verifiable until their bearers expire, and publishes a new key before it signs", async () => {
    const start = Date.now();
    const client = await approvedClient();
    const personal = await createAccessToken(client.userId, { name: "forever", scope: "all", lifetime: "never" });
    const kidOf = (jwt: string) => decodeProtectedHeader(jwt).kid;
    const kids = async () => (await publishedJwks()).keys.map((key) => key.kid);

    const first = await linked(client.projectId, personal.token);
    const firstKid = kidOf(first.jwt);
    expect(await kids()).toEqual([firstKid]);

    // Day 29: still the first key; this bearer lives until day 59.
    vi.setSystemTime(start + 29 * DAY_MS);
    const lateBearer = await linked(client.projectId, personal.token);
    expect(kidOf(lateBearer.jwt)).toBe(firstKid);

    // Day 31: the key is due; requests do not rotate it, the maintenance timer does. The
    // successor is published at once, but the old key still signs until verifiers' cached key
    // sets can have caught up.
    vi.setSystemTime(start + 31 * DAY_MS);
    expect(await kids()).toEqual([firstKid]);
    await runMaintenance(config());
    const duringHandover = await linked(client.projectId, personal.token);
    expect(kidOf(duringHandover.jwt)).toBe(firstKid);
    const published = await kids();
    expect(published).toHaveLength(2);
    const secondKid = published.find((kid) => kid !== firstKid);

    // Six minutes later the new key signs; the old key's bearers still verify.
    vi.setSystemTime(start + 31 * DAY_MS + 6 * MINUTE_MS);
    const afterHandover = await linked(client.projectId, personal.token);
    expect(kidOf(afterHandover.jwt)).toBe(secondKid);
    expect((await getProject(client.projectId, { authorization: lateBearer.bearer })).status).toBe(200);

    // Day 62: every bearer the first key could have signed has expired, so it is no longer
    // published; the second key is due in turn and has a successor.
    vi.setSystemTime(start + 62 * DAY_MS);
    await runMaintenance(config());
    const now = await kids();
    expect(now).not.toContain(firstKid);
    expect(now).toContain(secondKid);
    expect(now).toHaveLength(2);
    expect((await getProject(client.projectId, { authorization: lateBearer.bearer })).status).toBe(401);
    const latest = await linked(client.projectId, personal.token);
    expect(kidOf(latest.jwt)).toBe(secondKid);
    expect((await getProject(client.projectId, { authorization: latest.bearer })).status).toBe(200);
    const prisma = await db();
    expect(await prisma.signingKey.count()).toBe(3);
  });
});

describe("a server started with the wrong master key", () => {
  it("is refused before it can add a signing key that the other instances cannot open, even when rotation is due", async () => {
    const { prepareSigningKey } = await import("@/lib/signing-keys/signing-keys");
    await prepareSigningKey(config());
    const prisma = await db();
    const before = await prisma.signingKey.count();
    vi.setSystemTime(Date.now() + 400 * DAY_MS);
    // Another process: fresh modules, nothing decrypted yet, and a wrong master key.
    vi.resetModules();
    const other = await import("@/lib/signing-keys/signing-keys");
    const wrong = { ...config(), masterKey: Buffer.alloc(32, 9) };
    await expect(other.prepareSigningKey(wrong)).rejects.toThrow("does not open");
    await expect(other.rotateSigningKeys(wrong)).rejects.toThrow("does not open");
    expect(await prisma.signingKey.count()).toBe(before);
  });
});
