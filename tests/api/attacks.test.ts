import { createPrivateKey, generateKeyPairSync } from "node:crypto";
import { decodeProtectedHeader, SignJWT, type JWTPayload } from "jose";
import { describe, expect, it } from "vitest";
import { config } from "@/lib/config";
import { unseal } from "@/lib/crypto/sealed";
import { db } from "@/lib/db";
import { hashSecret } from "@/lib/secrets";
import { revokeAccessToken } from "@/lib/tokens/manage-access-tokens";
import { createdInit, getInitStatus } from "../helpers/api";
import { approve, deny, newAccount, signOut } from "../helpers/forms";
import { dispatch } from "../helpers/in-process";
import { approvedClient, createLink, getProject, linked, linkSnapshot, randomIv, withToken } from "../helpers/links";

// One row per attack, each with the answer it must get. None may succeed, and none may change
// anything it should not.

const APP_URL = "https://initlink.test";
const APPROVE = { project: "new", name: "Mine", code_confirmed: "yes" };
const errorOf = (response: Response) => new URL(response.headers.get("location") ?? "", APP_URL).searchParams.get("error");

type Client = Awaited<ReturnType<typeof approvedClient>>;
type Link = Awaited<ReturnType<typeof linked>>;

/** Signs `claims` with the service's own signing key, as only a thief of the master key could. */
async function signedByService(link: Link, claims: JWTPayload, header: Record<string, string> = {}) {
  const prisma = await db();
  const { kid } = decodeProtectedHeader(link.jwt);
  const row = await prisma.signingKey.findUniqueOrThrow({ where: { kid } });
  const key = createPrivateKey({ key: unseal(config().masterKey, row.privateKeySealed, `signing-key:${kid}`), format: "der", type: "pkcs8" });
  return new SignJWT(claims).setProtectedHeader({ alg: "EdDSA", kid, typ: "at+jwt", ...header }).sign(key);
}

const claimsOf = (link: Link) => JSON.parse(Buffer.from(link.jwt.split(".")[1], "base64url").toString()) as JWTPayload;
const now = () => Math.floor(Date.now() / 1000);

type BearerAttack = [name: string, forge: (link: Link, client: Client, other: Link) => Promise<string> | string];

const bearerAttacks: BearerAttack[] = [
  ["alg: none", (link) => `${Buffer.from(JSON.stringify({ alg: "none", typ: "at+jwt" })).toString("base64url")}.${link.jwt.split(".")[1]}.`],
  [
    "HS256 signed with the public key",
    async (link) => {
      const { kid } = decodeProtectedHeader(link.jwt);
      const prisma = await db();
      const jwk = JSON.parse((await prisma.signingKey.findUniqueOrThrow({ where: { kid } })).publicJwk);
      return new SignJWT(claimsOf(link)).setProtectedHeader({ alg: "HS256", kid, typ: "at+jwt" }).sign(new TextEncoder().encode(jwk.x));
    },
  ],
  ["an unknown kid", (link) => new SignJWT(claimsOf(link)).setProtectedHeader({ alg: "EdDSA", kid: "AAAAAAAAAAAAAAAAAAAAAA", typ: "at+jwt" }).sign(generateKeyPairSync("ed25519").privateKey)],
  ["expired", (link) => signedByService(link, { ...claimsOf(link), iat: now() - 7200, exp: now() - 3600 })],
  ["not yet valid", (link) => signedByService(link, { ...claimsOf(link), nbf: now() + 3600 })],
  ["a wrong issuer", (link) => signedByService(link, { ...claimsOf(link), iss: "https://evil.example" })],
  ["a wrong audience", (link) => signedByService(link, { ...claimsOf(link), aud: `${APP_URL}/api/projects/other` })],
  ["another token type", (link) => signedByService(link, claimsOf(link), { typ: "JWT" })],
  ["the payload changed after signing", (link, client) => {
    const [header, , signature] = link.jwt.split(".");
    return `${header}.${Buffer.from(JSON.stringify({ ...claimsOf(link), sub: client.projectId })).toString("base64url")}.${signature}`;
  }],
  ["a link of another project", (_link, _client, other) => other.jwt],
  ["the access token instead of a bearer", (_link, client) => client.accessToken],
];

describe("attacks on the link bearer (GET /api/projects/{projectId})", () => {
  it.each(bearerAttacks)("refuses a bearer with %s: 401 invalid_token", async (_name, forge) => {
    const client = await approvedClient();
    const other = await approvedClient("Other");
    const link = await linked(client.projectId, client.accessToken);
    const otherLink = await linked(other.projectId, other.accessToken);
    const bearer = await forge(link, client, otherLink);
    const before = await linkSnapshot();
    const response = await getProject(client.projectId, { authorization: `Bearer ${bearer}` });
    expect(response.status).toBe(401);
    expect((await response.json()).code).toBe("invalid_token");
    expect(await linkSnapshot()).toEqual(before);
  });

  it.each([
    ["a revoked link", async (_client: Client, link: Link) => {
      const prisma = await db();
      await prisma.projectLink.update({ where: { id: link.link_id }, data: { revokedAt: new Date() } });
    }],
    ["a link whose access token was revoked", async (client: Client) => {
      const prisma = await db();
      await revokeAccessToken(client.userId, (await prisma.accessToken.findUniqueOrThrow({ where: { tokenHash: hashSecret(client.accessToken) } })).id);
    }],
    ["a link whose access token expired", async (client: Client) => {
      const prisma = await db();
      await prisma.accessToken.updateMany({ where: { tokenHash: hashSecret(client.accessToken) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    }],
    ["a link of a deleted user", async (client: Client) => {
      const prisma = await db();
      await prisma.user.delete({ where: { id: client.userId } });
    }],
  ])("refuses the valid signature of %s", async (_name, undo) => {
    const client = await approvedClient();
    const link = await linked(client.projectId, client.accessToken);
    await undo(client, link);
    const response = await getProject(client.projectId, { authorization: link.bearer });
    expect(response.status).toBe(401);
  });
});

describe("attacks on Create Project Link", () => {
  it.each([
    ["a revoked access token", async (client: Client) => {
      const prisma = await db();
      await revokeAccessToken(client.userId, (await prisma.accessToken.findUniqueOrThrow({ where: { tokenHash: hashSecret(client.accessToken) } })).id);
      return createLink(client.projectId, randomIv(), withToken(client.accessToken));
    }, 401, "invalid_token"],
    ["an expired access token", async (client: Client) => {
      const prisma = await db();
      await prisma.accessToken.updateMany({ where: { tokenHash: hashSecret(client.accessToken) }, data: { expiresAt: new Date(Date.now() - 1000) } });
      return createLink(client.projectId, randomIv(), withToken(client.accessToken));
    }, 401, "invalid_token"],
    ["the token of a deleted user", async (client: Client) => {
      const prisma = await db();
      await prisma.user.delete({ where: { id: client.userId } });
      return createLink(client.projectId, randomIv(), withToken(client.accessToken));
    }, 401, "invalid_token"],
    ["the access token in the query string instead of the header", async (client: Client) => {
      return dispatch("POST", `/api/projects/${client.projectId}/link/${randomIv()}?access_token=${client.accessToken}`);
    }, 401, "unauthorized"],
  ])("refuses %s", async (_name, attack, status, code) => {
    const client = await approvedClient();
    const response = await attack(client);
    expect(response.status).toBe(status);
    expect(await response.json()).toMatchObject({ success: false, code });
  });
});

describe("attacks on approval and token pickup", () => {
  it("refuses a session cookie of a signed-out session", async () => {
    const person = await newAccount();
    const init = await createdInit();
    await signOut(person.token);
    expect(errorOf(await approve(init.id, person.token, APPROVE))).toBe("unauthorized");
    expect(errorOf(await deny(init.id, person.token))).toBe("unauthorized");
  });

  it.each([
    ["another site's Origin", { origin: "https://evil.example" }],
    ["Origin null from another site", { origin: "null", "sec-fetch-site": "cross-site" }],
    ["no Origin and no Sec-Fetch-Site", { origin: "" }],
  ])("refuses approve and deny with %s", async (_name, headers) => {
    const person = await newAccount();
    const init = await createdInit();
    expect(errorOf(await approve(init.id, person.token, APPROVE, headers))).toBe("cross_site_request");
    expect(errorOf(await deny(init.id, person.token, headers))).toBe("cross_site_request");
    expect((await (await getInitStatus(init.id)).json()).status).toBe("pending");
  });

  it.each([
    ["expired", async (id: string) => (await db()).init.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } })],
    ["denied", async (id: string, token: string) => deny(id, token)],
    ["already done", async (id: string, token: string) => approve(id, token, APPROVE)],
  ])("refuses to approve an init that is %s", async (_name, before) => {
    const person = await newAccount();
    const init = await createdInit();
    await before(init.id, person.token);
    expect(errorOf(await approve(init.id, person.token, { ...APPROVE, name: "Second" }))).toBe("init_not_pending");
  });

  it("refuses a second person approving into a project they do not own", async () => {
    const owner = await approvedClient("Owned");
    const intruder = await newAccount();
    const init = await createdInit();
    expect(errorOf(await approve(init.id, intruder.token, { project: owner.projectId, code_confirmed: "yes" }))).toBe("not_found");
    expect((await (await getInitStatus(init.id)).json()).status).toBe("pending");
  });

  it("gives the access token only to the secret's holder, only once", async () => {
    const person = await newAccount();
    const init = await createdInit();
    await approve(init.id, person.token, APPROVE);
    const withoutSecret = await (await getInitStatus(init.id, { "user-agent": "no secret" })).json();
    expect(withoutSecret.access_token).toBeUndefined();
    const wrong = await getInitStatus(init.id, { authorization: `Bearer ilsec_${"A".repeat(43)}`, "user-agent": "wrong" });
    expect(wrong.status).toBe(401);
    const first = await (await getInitStatus(init.id, { authorization: `Bearer ${init.secret}`, "user-agent": "first" })).json();
    expect(first.access_token).toMatch(/^ilat_/);
    const second = await (await getInitStatus(init.id, { authorization: `Bearer ${init.secret}`, "user-agent": "second" })).json();
    expect(second.access_token).toBeUndefined();
  });
});
