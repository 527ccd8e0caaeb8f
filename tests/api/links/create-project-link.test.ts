import { constants, createHash, createPrivateKey, createPublicKey, generateKeyPairSync, privateDecrypt, publicEncrypt, randomBytes } from "node:crypto";
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { config } from "@/lib/config";
import { unseal } from "@/lib/crypto/sealed";
import { db } from "@/lib/database/db";
import { projectKeyAssociatedData } from "@/lib/projects/project-keys";
import { hashSecret } from "@/lib/secrets";
import { createAccessToken } from "@/lib/access-tokens/issue-access-token";
import { revokeAccessToken } from "@/lib/access-tokens/manage-access-tokens";
import { approvedClient, createLink, getProject, linked, linkSnapshot, publishedJwks, randomIv, withToken } from "../../helpers/links";
import { rateLimitCounters } from "../../helpers/api";

const APP_URL = "https://initlink.test";
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

async function expectFailure(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  const body = await response.json();
  expect(body).toMatchObject({ success: false, error: expect.any(String), code });
  // A failure never carries a bearer or a key.
  expect(body).not.toHaveProperty("bearer");
  expect(body).not.toHaveProperty("public");
  return body as { success: false; error: string; code: string };
}

describe("Create Project Link", () => {
  it("answers the signed bearer and the project's public key", async () => {
    const client = await approvedClient();
    const iv = randomIv();
    const response = await createLink(client.projectId, iv, withToken(client.accessToken));
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await response.json();
    expect(Object.keys(body).sort()).toEqual(["bearer", "expires_at", "link_id", "public", "public_fingerprint", "success"]);
    expect(body.success).toBe(true);
    expect(body.bearer).toMatch(/^Bearer [A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(body.public).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n$/);
    const publicKey = createPublicKey(body.public);
    expect(publicKey.asymmetricKeyType).toBe("rsa");
    expect(publicKey.asymmetricKeyDetails?.modulusLength).toBe(4096);
    const der = publicKey.export({ type: "spki", format: "der" });
    expect(body.public_fingerprint).toBe(`SHA256:${createHash("sha256").update(der).digest("base64").replace(/=+$/, "")}`);

    const prisma = await db();
    const link = await prisma.projectLink.findUniqueOrThrow({ where: { id: body.link_id } });
    const token = await prisma.accessToken.findUniqueOrThrow({ where: { tokenHash: hashSecret(client.accessToken) } });
    expect(link).toMatchObject({ projectId: client.projectId, iv, accessTokenId: token.id, userAgent: "acme-cli/2.0", revokedAt: null });
    expect(token.lastUsedAt).not.toBeNull();
  });

  it("signs a JWT that an independent verifier accepts with the published JWKS", async () => {
    const client = await approvedClient();
    const link = await linked(client.projectId, client.accessToken);
    const jwks = await publishedJwks();
    for (const key of jwks.keys) {
      expect(key).toMatchObject({ kty: "OKP", crv: "Ed25519", alg: "EdDSA", use: "sig", kid: expect.any(String), x: expect.any(String) });
      expect(key).not.toHaveProperty("d");
    }
    const header = decodeProtectedHeader(link.jwt);
    expect(header).toEqual({ alg: "EdDSA", kid: expect.any(String), typ: "at+jwt" });
    const { payload } = await jwtVerify(link.jwt, createLocalJWKSet(jwks as Parameters<typeof createLocalJWKSet>[0]), {
      issuer: APP_URL,
      audience: `${APP_URL}/api/projects/${client.projectId}`,
      algorithms: ["EdDSA"],
    });
    expect(payload).toEqual({
      iss: APP_URL,
      aud: `${APP_URL}/api/projects/${client.projectId}`,
      sub: link.link_id,
      project_id: client.projectId,
      client_id: expect.any(String),
      // The approving account, for the platform to map the login to its own user.
      account_id: client.userId,
      iat: expect.any(Number),
      exp: link.expires_at / 1000,
      jti: expect.any(String),
    });
    // The documented default lifetime: 30 days.
    expect(payload.exp! - payload.iat!).toBeGreaterThanOrEqual(30 * 86_400 - 1);
    expect(payload.exp! - payload.iat!).toBeLessThanOrEqual(30 * 86_400);
  });

  it("keeps the private key sealed, and it decrypts a 255-byte RSA-OAEP chunk made with `public`", async () => {
    const client = await approvedClient();
    const link = await linked(client.projectId, client.accessToken);
    const chunk = randomBytes(255);
    const encrypted = publicEncrypt({ key: link.public, padding: constants.RSA_PKCS1_OAEP_PADDING }, chunk);
    const prisma = await db();
    const stored = await prisma.projectKey.findUniqueOrThrow({ where: { projectId: client.projectId } });
    expect(stored.privateKeySealed).toMatch(/^v1\./);
    expect(stored.privateKeySealed).not.toContain("PRIVATE KEY");
    const der = unseal(config().masterKey, stored.privateKeySealed, projectKeyAssociatedData(client.projectId));
    const privateKey = createPrivateKey({ key: der, format: "der", type: "pkcs8" });
    expect(privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING }, encrypted)).toEqual(chunk);
    // Sealed for this project only: under another project's name it does not open.
    expect(() => unseal(config().masterKey, stored.privateKeySealed, projectKeyAssociatedData("someone-else"))).toThrow();
  });

  it("gives the same link back when the same token retries, whatever the iv's case", async () => {
    const client = await approvedClient();
    const iv = randomIv();
    const first = await linked(client.projectId, client.accessToken, iv);
    const again = await linked(client.projectId, client.accessToken, iv.toUpperCase());
    expect(again.link_id).toBe(first.link_id);
    expect(again.public).toBe(first.public);
    const prisma = await db();
    expect(await prisma.projectLink.count({ where: { projectId: client.projectId } })).toBe(1);
  });

  it("makes exactly one link of 50 concurrent identical requests, recorded once, and every one gets it", async () => {
    const client = await approvedClient();
    const iv = randomIv();
    const responses = await Promise.all(Array.from({ length: 50 }, () => createLink(client.projectId, iv, withToken(client.accessToken))));
    const bodies = await Promise.all(responses.map((response) => response.json()));
    expect(responses.map((response) => response.status)).toEqual(Array(50).fill(200));
    expect(new Set(bodies.map((body) => body.link_id)).size).toBe(1);
    const prisma = await db();
    expect(await prisma.projectLink.count({ where: { projectId: client.projectId } })).toBe(1);
    expect(await prisma.activityEvent.count({ where: { projectId: client.projectId, kind: "link_created" } })).toBe(1);
  });

  it("counts only the winner when two tokens race for one (project, iv): the 409 writes no rate-limit count", async () => {
    const client = await approvedClient();
    const personal = await createAccessToken(client.userId, { name: "laptop", scope: "all", lifetime: "30" });
    const rounds = 10;
    for (let round = 0; round < rounds; round++) {
      const iv = randomIv();
      const statuses = (await Promise.all([client.accessToken, personal.token].map((token) => createLink(client.projectId, iv, withToken(token))))).map((response) => response.status);
      expect(statuses.toSorted()).toEqual([200, 409]);
    }
    const prisma = await db();
    const tokens = await prisma.accessToken.findMany({ where: { userId: client.userId }, select: { id: true } });
    const keys = new Set(tokens.map((token) => `links-token:${token.id}`));
    const counters = (await rateLimitCounters("links-token:")).filter((counter) => keys.has(counter.key));
    expect(counters.reduce((sum, counter) => sum + counter.count, 0)).toBe(rounds);
  });

  it("answers 409 to another token using a (project, iv) already linked, and writes nothing", async () => {
    const client = await approvedClient();
    const iv = randomIv();
    await linked(client.projectId, client.accessToken, iv);
    const personal = await createAccessToken(client.userId, { name: "laptop", scope: "all", lifetime: "30" });
    const before = await linkSnapshot();
    await expectFailure(await createLink(client.projectId, iv, withToken(personal.token)), 409, "link_conflict");
    expect(await linkSnapshot()).toEqual(before);
  });

  it("refuses every missing, malformed, unknown, expired or revoked token with 401, writing nothing", async () => {
    const client = await approvedClient();
    await linked(client.projectId, client.accessToken);
    const expired = await createAccessToken(client.userId, { name: "old", scope: "all", lifetime: "7" });
    const revoked = await createAccessToken(client.userId, { name: "gone", scope: "all", lifetime: "7" });
    const prisma = await db();
    await prisma.accessToken.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await revokeAccessToken(client.userId, revoked.id);
    const cases: [Record<string, string>, string][] = [
      [{}, "unauthorized"],
      [{ authorization: `Basic ${Buffer.from("a:b").toString("base64")}` }, "invalid_token"],
      [{ authorization: "Bearer" }, "invalid_token"],
      [{ authorization: "Bearer not-a-token" }, "invalid_token"],
      [withToken(`ilat_${randomBytes(32).toString("base64url")}`), "invalid_token"],
      [withToken(expired.token), "invalid_token"],
      [withToken(revoked.token), "invalid_token"],
    ];
    const before = await linkSnapshot();
    for (const [headers, code] of cases) {
      const response = await createLink(client.projectId, randomIv(), headers);
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer realm="initlink"/);
      const body = await expectFailure(response, 401, code);
      expect(JSON.stringify(body)).not.toContain(client.accessToken);
    }
    expect(await linkSnapshot()).toEqual(before);
  });

  it("answers 404 alike for a project that does not exist and one the token does not reach", async () => {
    const client = await approvedClient();
    const stranger = await approvedClient("Someone else's");
    const second = await approvedClient("Second");
    // A token for one project does not reach the same person's other projects.
    const scoped = await createAccessToken(client.userId, { name: "scoped", scope: client.projectId, lifetime: "30" });
    const before = await linkSnapshot();
    const answers = [];
    for (const [projectId, token] of [
      ["AAAAAAAAAAAAAAAAAAAAAA", client.accessToken],
      [stranger.projectId, client.accessToken],
      [second.projectId, scoped.token],
      ["..", client.accessToken],
      ["%00", client.accessToken],
      ["x".repeat(5000), client.accessToken],
    ]) {
      answers.push(await expectFailure(await createLink(projectId, randomIv(), withToken(token)), 404, "not_found"));
    }
    expect(new Set(answers.map((answer) => answer.error)).size).toBe(1);
    expect(await linkSnapshot()).toEqual(before);
  });

  it("lets a personal token link any of the person's projects", async () => {
    const client = await approvedClient();
    const personal = await createAccessToken(client.userId, { name: "everything", scope: "all", lifetime: "never" });
    const link = await linked(client.projectId, personal.token);
    // A bearer of a token that never expires lives for the link lifetime.
    expect(link.expires_at).toBeGreaterThan(Date.now() + 29 * 86_400_000);
  });

  it("never lets a bearer outlive its access token", async () => {
    const client = await approvedClient();
    const shortLived = await createAccessToken(client.userId, { name: "a week", scope: "all", lifetime: "7" });
    const link = await linked(client.projectId, shortLived.token);
    expect(link.expires_at).toBeLessThanOrEqual(Date.now() + 7 * 86_400_000);
  });

  it.each([
    ["too short", "ab".repeat(15) + "a"],
    ["too long", "a".repeat(129)],
    ["not hexadecimal", "g".repeat(32)],
    ["with a path", "../" + "a".repeat(32)],
    ["with a NUL", "a".repeat(32) + "\u0000"],
    ["unicode digits", "١".repeat(32)],
  ])("refuses an iv %s with 400 and writes nothing", async (_case, iv) => {
    const client = await approvedClient();
    const before = await linkSnapshot();
    const body = await expectFailure(await createLink(client.projectId, iv, withToken(client.accessToken)), 400, "invalid_request");
    expect(body.error).toContain("iv must be 32 to 128 hexadecimal characters");
    expect(await linkSnapshot()).toEqual(before);
  });

  it("accepts the longest iv and ignores a small body, but refuses a body over 16 KiB", async () => {
    const client = await approvedClient();
    const longest = await createLink(client.projectId, "f".repeat(128), withToken(client.accessToken), JSON.stringify({ ignored: true }));
    expect(longest.status).toBe(200);
    const before = await linkSnapshot();
    await expectFailure(await createLink(client.projectId, randomIv(), withToken(client.accessToken), "x".repeat(16 * 1024 + 1)), 413, "payload_too_large");
    expect(await linkSnapshot()).toEqual(before);
  });

  it("waits for a key still being generated, and every link gets the same key", async () => {
    const client = await approvedClient();
    const prisma = await db();
    // Simulate a server that stopped before the background generation finished.
    await prisma.projectKey.deleteMany({ where: { projectId: client.projectId } });
    const links = await Promise.all([linked(client.projectId, client.accessToken), linked(client.projectId, client.accessToken)]);
    expect(links[0].public).toBe(links[1].public);
    expect(await prisma.projectKey.count({ where: { projectId: client.projectId } })).toBe(1);
  });
});

describe("GET /api/projects/{projectId} with a link bearer", () => {
  it("answers the project, its public key and this link's details", async () => {
    const client = await approvedClient("Readable");
    const link = await linked(client.projectId, client.accessToken);
    const response = await getProject(client.projectId, { authorization: link.bearer });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      id: client.projectId,
      name: "Readable",
      created_at: expect.any(Number),
      public: link.public,
      public_fingerprint: link.public_fingerprint,
      link: { id: link.link_id, iv: link.iv, created_at: expect.any(Number), expires_at: link.expires_at },
    });
    const prisma = await db();
    expect((await prisma.projectLink.findUniqueOrThrow({ where: { id: link.link_id } })).lastUsedAt).not.toBeNull();
  });

  it("refuses forged, misused and revoked bearers with 401", async () => {
    const client = await approvedClient();
    const other = await approvedClient("Other");
    const link = await linked(client.projectId, client.accessToken);
    const otherLink = await linked(other.projectId, other.accessToken);
    const [header, payload] = link.jwt.split(".");
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    const { kid } = decodeProtectedHeader(link.jwt);
    const unsigned = (protectedHeader: object, body: object) =>
      `${Buffer.from(JSON.stringify(protectedHeader)).toString("base64url")}.${Buffer.from(JSON.stringify(body)).toString("base64url")}`;
    const jwk = (await publishedJwks()).keys.find((key) => key.kid === kid)!;
    const hmacWithPublicKey = await new SignJWT(claims).setProtectedHeader({ alg: "HS256", kid, typ: "at+jwt" }).sign(new TextEncoder().encode(jwk.x));
    const impostorKey = generateKeyPairSync("ed25519").privateKey;
    const impostor = await new SignJWT(claims).setProtectedHeader({ alg: "EdDSA", kid, typ: "at+jwt" }).sign(impostorKey);
    const changedPayload = `${header}.${Buffer.from(JSON.stringify({ ...claims, project_id: other.projectId })).toString("base64url")}.${link.jwt.split(".")[2]}`;
    const bearers = [
      `${unsigned({ alg: "none", typ: "at+jwt" }, claims)}.`,
      hmacWithPublicKey,
      impostor,
      changedPayload,
      otherLink.jwt,
      client.accessToken,
      "not.a.jwt",
    ];
    const before = await linkSnapshot();
    for (const bearer of bearers) {
      const response = await getProject(client.projectId, { authorization: `Bearer ${bearer}` });
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toContain('error="invalid_token"');
      expect((await response.json()).code).toBe("invalid_token");
    }
    const missing = await getProject(client.projectId, {});
    expect(missing.status).toBe(401);
    expect((await missing.json()).code).toBe("unauthorized");
    expect(await linkSnapshot()).toEqual(before);
  });

  it("stops working at once when the link is revoked", async () => {
    const client = await approvedClient();
    const link = await linked(client.projectId, client.accessToken);
    expect((await getProject(client.projectId, { authorization: link.bearer })).status).toBe(200);
    const prisma = await db();
    await prisma.projectLink.update({ where: { id: link.link_id }, data: { revokedAt: new Date() } });
    const response = await getProject(client.projectId, { authorization: link.bearer });
    expect(response.status).toBe(401);
    expect((await response.json()).error).toBe("This link has been revoked.");
    // A retry with the same iv does not bring a revoked link back.
    const retry = await createLink(client.projectId, link.iv, withToken(client.accessToken));
    await expectFailure(retry, 409, "link_revoked");
  });

  it("stops working at once when the access token that made the link is revoked", async () => {
    const client = await approvedClient();
    const link = await linked(client.projectId, client.accessToken);
    const prisma = await db();
    const token = await prisma.accessToken.findUniqueOrThrow({ where: { tokenHash: hashSecret(client.accessToken) } });
    await revokeAccessToken(client.userId, token.id);
    const response = await getProject(client.projectId, { authorization: link.bearer });
    expect(response.status).toBe(401);
    expect((await createLink(client.projectId, randomIv(), withToken(client.accessToken))).status).toBe(401);
  });

  it("refuses an expired bearer", async () => {
    const client = await approvedClient();
    const link = await linked(client.projectId, client.accessToken);
    const { signLinkBearer } = await import("@/lib/links/link-bearer");
    const expired = await signLinkBearer(config(), { linkId: link.link_id, projectId: client.projectId, teamId: null, clientId: "AAAAAAAAAAAAAAAAAAAAAA", accountId: client.userId, upstream: null, expiresAt: new Date(Date.now() - 1000) });
    expect(expired).toMatch(JWT_SHAPE);
    const response = await getProject(client.projectId, { authorization: `Bearer ${expired}` });
    expect(response.status).toBe(401);
    expect((await response.json()).error).toBe("The bearer token has expired. Create the link again.");
  });
});
