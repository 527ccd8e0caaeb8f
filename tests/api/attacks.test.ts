import { createPrivateKey, generateKeyPairSync } from "node:crypto";
import { decodeProtectedHeader, SignJWT, type JWTPayload } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { config } from "@/lib/config";
import { unseal } from "@/lib/crypto/sealed";
import { db } from "@/lib/database/db";
import { PEER_ADDRESS_HEADER } from "@/server/request-context.mjs";
import { hashSecret } from "@/lib/secrets";
import { revokeAccessToken } from "@/lib/access-tokens/manage-access-tokens";
import { createdInit, getInitStatus } from "../helpers/api";
import { approve, COOKIE_NAME, createTokenForm, deny, newAccount, signIn, signOut } from "../helpers/forms";
import * as noSuchRoute from "@/app/api/[...path]/route";
import * as createInitRoute from "@/app/api/init/route";
import { dispatch } from "../helpers/in-process";
import { heldPickupsEndedAtOnce } from "../helpers/held-pickups";
import { approvedClient, createLink, getProject, linked, linkSnapshot, randomIv, withToken } from "../helpers/links";

// One row per attack, each with the answer it must get. None may succeed, and none may change
// anything it should not.

// Low limits, for the attacks on the limits at the end; the other rows never meet them.
vi.hoisted(() => {
  Object.assign(process.env, { LINKS_PER_TOKEN_PER_MINUTE: "3", PICKUPS_PER_INIT_PER_MINUTE: "3", SIGN_IN_FAILURES_PER_15_MINUTES: "3" });
});

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

  // In confirm mode the page shows the code to whoever holds its URL; for a
  // client that prints the code, only the person at its terminal can approve.
  it("refuses a holder of the page URL who only ticks the code of an init whose client prints it", async () => {
    const thief = await newAccount();
    const init = await createdInit({ sender: "@acme/cli", user_code_shown: true });
    expect(errorOf(await approve(init.id, thief.token, APPROVE))).toBe("code_mismatch");
    expect((await (await getInitStatus(init.id)).json()).status).toBe("pending");
  });

  // In confirm mode too: the code an init's client prints is guessed at most
  // five times, however many guesses arrive at once (four code_mismatch, the fifth denies it).
  it("compares at most five of 20 concurrent wrong codes of an init whose client prints it", async () => {
    const guesser = await newAccount();
    const init = await createdInit({ sender: "@acme/cli", user_code_shown: true });
    const guesses = await Promise.all(Array.from({ length: 20 }, () => approve(init.id, guesser.token, { project: "new", name: "x", user_code: "AAAA-AAAA" })));
    const errors = guesses.map(errorOf);
    expect(errors.filter((error) => error === "code_mismatch")).toHaveLength(4);
    expect(errors.every((error) => error === "code_mismatch" || error === "init_not_pending" || error === "rate_limited")).toBe(true);
    expect((await (await getInitStatus(init.id)).json()).status).toBe("denied");
  });

  it("refuses a second person approving into a project they do not own", async () => {
    const owner = await approvedClient("Owned");
    const intruder = await newAccount();
    const init = await createdInit();
    expect(errorOf(await approve(init.id, intruder.token, { project: owner.projectId, code_confirmed: "yes" }))).toBe("not_found");
    expect((await (await getInitStatus(init.id)).json()).status).toBe("pending");
  });

  // A second session cookie planted with a narrower Path (sent first) or set
  // earlier (sent last) must not make a form act as one account while the page shows another:
  // every route refuses a request that carries two.
  it.each([
    ["the attacker's cookie first (a planted Path=/init)", (victim: string, attacker: string) => `${COOKIE_NAME}=${attacker}; ${COOKIE_NAME}=${victim}`],
    ["the attacker's cookie last", (victim: string, attacker: string) => `${COOKIE_NAME}=${victim}; other=1; ${COOKIE_NAME}=${attacker}`],
  ])("refuses approve, deny and the token form with two session cookies, %s", async (_name, cookie) => {
    const victim = await newAccount();
    const attacker = await newAccount();
    const init = await createdInit();
    const header = { cookie: cookie(victim.token, attacker.token) };
    expect(errorOf(await approve(init.id, attacker.token, APPROVE, header))).toBe("duplicate_session_cookie");
    expect(errorOf(await deny(init.id, attacker.token, header))).toBe("duplicate_session_cookie");
    const tokenForm = await createTokenForm(victim.token, { name: "planted", scope: "all", lifetime: "30" }, header);
    expect(tokenForm.status).toBe(400);
    expect(await tokenForm.json()).toMatchObject({ code: "duplicate_session_cookie" });
    expect((await (await getInitStatus(init.id)).json()).status).toBe("pending");
    expect(await (await db()).accessToken.count({ where: { name: "planted" } })).toBe(0);
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

const PASSWORD = "correct horse battery";
const peer = (address: string) => ({ "x-initlink-peer": address });
const held: AbortController[] = [];
afterEach(() => {
  for (const controller of held.splice(0)) controller.abort();
});

type LimitAttack = [name: string, attack: () => Promise<string[]>, served: string, least: number, most: number];

// 20 requests at once against a limit of 3 (links per token, pickups
// per init, wrong passwords per account and address) or against one password check at a time
// per account: each answer is named "served" or by its refusal code; between `least` and `most`
// are served (the wrong passwords also meet the one check at a time: 1 to 3 are checked), the
// rest refused with rate_limited.
const limitAttacks: LimitAttack[] = [
  ["20 links at once with one token, each a new iv", async () => {
    const client = await approvedClient();
    const answers = await Promise.all(Array.from({ length: 20 }, () => createLink(client.projectId, randomIv(), withToken(client.accessToken))));
    return Promise.all(answers.map(async (answer) => (answer.status === 200 ? "served" : (await answer.json()).code)));
  }, "served", 3, 3],
  ["20 token pickups held at once until the approval", async () => {
    const person = await newAccount();
    const init = await createdInit();
    const controller = new AbortController();
    held.push(controller);
    const answers = await heldPickupsEndedAtOnce(init, 20, () => approve(init.id, person.token, APPROVE), controller.signal);
    return Promise.all(answers.map(async (answer) => (answer.status === 200 ? "served" : (await answer.json()).code)));
  }, "served", 3, 3],
  ["20 wrong passwords at once on one account from one address", async () => {
    const person = await newAccount();
    const answers = await Promise.all(Array.from({ length: 20 }, () => signIn({ email: person.email, password: "wrong password!" }, "", peer("192.0.2.60"))));
    return answers.map((answer) => errorOf(answer) ?? "signed in");
  }, "invalid_credentials", 1, 3],
  ["20 guesses at once on one account from 20 addresses, after 3 failures", async () => {
    const person = await newAccount();
    for (let i = 0; i < 3; i++) await signIn({ email: person.email, password: "wrong password!" }, "", peer("192.0.2.61"));
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => signIn({ email: person.email, password: `guess ${i} ${PASSWORD}` }, "", peer(`198.51.100.${i + 1}`))));
    return answers.map((answer) => errorOf(answer) ?? "signed in");
  }, "invalid_credentials", 1, 1],
];

describe("attacks on the limits", () => {
  it.each(limitAttacks)("limits %s", async (_name, attack, served, least, most) => {
    const answers = await attack();
    const servedCount = answers.filter((answer) => answer === served).length;
    expect(servedCount).toBeGreaterThanOrEqual(least);
    expect(servedCount).toBeLessThanOrEqual(most);
    expect(answers.filter((answer) => answer === "rate_limited")).toHaveLength(20 - servedCount);
  });
});

describe("attacks on the JWT and JWK Set details", () => {
  // A verifier that cached the key set may meet a bearer of a retired key: the key stays
  // published for as long as a bearer it signed lives, whatever LINK_LIFETIME_DAYS says now.
  it("keeps publishing a retired key until the last bearer it signed expires, even after LINK_LIFETIME_DAYS was lowered", async () => {
    const { rotateSigningKeys } = await import("@/lib/signing-keys/signing-keys");
    const publishedKids = async () => ((await (await dispatch("GET", "/.well-known/jwks.json")).json()) as { keys: { kid: string }[] }).keys.map((key) => key.kid);
    const client = await approvedClient();
    const link = await linked(client.projectId, client.accessToken);
    const { kid } = decodeProtectedHeader(link.jwt);
    const exp = claimsOf(link).exp ?? 0;
    // The key is rotated and the operator lowers LINK_LIFETIME_DAYS to 1 (this process's
    // configuration, as after a restart). A day and a half later the 30-day bearer still lives:
    // its key must still be published and accepted.
    await rotateSigningKeys({ ...config(), signingKeyRotationMs: 0 });
    const cfg = config();
    const lifetime = cfg.linkLifetimeMs;
    cfg.linkLifetimeMs = 86_400_000;
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + 36 * 3_600_000);
      expect(await publishedKids()).toContain(kid);
      expect((await getProject(client.projectId, { authorization: link.bearer })).status).toBe(200);
      // Once that bearer has expired, the retired key is no longer published.
      vi.setSystemTime(exp * 1000 + 2 * 3_600_000);
      expect(await publishedKids()).not.toContain(kid);
    } finally {
      vi.useRealTimers();
      cfg.linkLifetimeMs = lifetime;
    }
  });

  it("answers the JWK Set to a verifier on any origin (Access-Control-Allow-Origin: *)", async () => {
    const response = await dispatch("GET", "/.well-known/jwks.json", { headers: { origin: "https://verifier.example" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
  });

  // RFC 9068 §2.2: a JWT access token names the client it was issued to.
  it("names the client (the access token's id) in the bearer's client_id", async () => {
    const client = await approvedClient();
    const link = await linked(client.projectId, client.accessToken);
    const prisma = await db();
    const token = await prisma.accessToken.findUniqueOrThrow({ where: { tokenHash: hashSecret(client.accessToken) } });
    expect(claimsOf(link).client_id).toBe(token.id);
  });

  // RFC 6750 §3 challenges belong to routes that take a bearer; a session route names none.
  it("puts a Bearer challenge on a bearer route's 401, never on a cookie route's", async () => {
    const signedOut = await createTokenForm("not-a-session", { name: "x", scope: "all", lifetime: "never" });
    expect(signedOut.status).toBe(401);
    expect(signedOut.headers.get("www-authenticate")).toBeNull();
    const client = await approvedClient();
    const noBearer = await getProject(client.projectId, {});
    expect(noBearer.status).toBe(401);
    expect(noBearer.headers.get("www-authenticate")).toMatch(/^Bearer realm="initlink"/);
  });
});

describe("attacks with client-reported text and addresses", () => {
  // A format or bidi character can make a device name display as another one.
  it.each([
    ["an Arabic letter mark (a bidi control the old list missed)", "laptop\u061c"],
    ["a zero-width space", "lap\u200btop"],
    ["a line separator", "laptop\u2028admin"],
    ["a tag character", "laptop\u{e0041}"],
  ])("refuses a sender_device with %s and creates nothing", async (_name, device) => {
    const prisma = await db();
    const before = await prisma.init.count();
    const response = await dispatch("POST", "/api/init", { body: JSON.stringify({ sender: "@acme/cli", sender_device: device }), headers: { "content-type": "application/json" } });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.code).toBe("invalid_request");
    expect(body.fields.map((problem: { field: string }) => problem.field)).toEqual(["sender_device"]);
    expect(await prisma.init.count()).toBe(before);
  });

  // The page flags an init whose reported address is a public one that is not the one its
  // request came from; the same address spelled another way (IPv6 forms, an IPv4-mapped peer) is
  // no mismatch, and a documentation address (RFC 5737, RFC 3849) is no host's.
  it.each([
    ["0:0:0:0:0:0:0:1", "::1", false],
    ["::FFFF:127.0.0.1", "127.0.0.1", false],
    ["127.0.0.1", "::ffff:127.0.0.1", false],
    ["8.8.8.8", "127.0.0.1", true],
    ["203.0.113.9", "127.0.0.1", false],
    ["2001:db8::9", "127.0.0.1", false],
  ])("reported %s from peer %s: flagged %s", async (reported, peer, flagged) => {
    const { findInitView } = await import("@/lib/init/init-view");
    const response = await dispatch("POST", "/api/init", {
      body: JSON.stringify({ sender: "@acme/cli", sender_ip: reported }),
      headers: { "content-type": "application/json", [PEER_ADDRESS_HEADER]: peer },
    });
    expect(response.status).toBe(201);
    // A pending init's details, as any signed-in account sees them.
    const view = await findInitView((await response.json()).id, "a-signed-in-account");
    expect(view?.details?.addressMismatch).toBe(flagged);
  });
});

// A wrong method or a path that is no route gets the API's JSON error shape,
// not an empty 405 or the pages' HTML 404 (against the build: tests/e2e/hardening.spec.ts).
describe("attacks on the API's edges", () => {
  it.each([
    ["GET /api/init", () => createInitRoute.GET(new Request(`${APP_URL}/api/init`), { params: Promise.resolve({}) }), 405, "method_not_allowed"],
    ["an unknown API path", () => noSuchRoute.POST(new Request(`${APP_URL}/api/nothing`, { method: "POST" }), { params: Promise.resolve({ path: ["nothing"] }) }), 404, "not_found"],
    [
      "a dot-dot segment",
      () => noSuchRoute.POST(new Request(`${APP_URL}/api/projects/%2e%2e/link/${randomIv()}`, { method: "POST" }), { params: Promise.resolve({ path: ["projects", "..", "link", randomIv()] }) }),
      404,
      "not_found",
    ],
  ])("answers %s with JSON", async (_name, attack, status, code) => {
    const response = await attack();
    expect(response.status).toBe(status);
    expect(await response.json()).toMatchObject({ code });
  });
});
