import { calculateJwkThumbprint, exportJWK } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { config } from "@/lib/config";
import { db } from "@/lib/database/db";
import { sweep } from "@/lib/maintenance/sweep";
import { hashSecret } from "@/lib/secrets";
import { DPOP_NONCE_WINDOW_MS, dpopNonce } from "@/lib/oauth/dpop";
import { databaseSnapshot } from "../../helpers/api";
import { dpopProof, hugeRsaJwk, newDpopKey, rsaDpopKey, type DpopKey, type ProofOptions } from "../../helpers/dpop";
import { approvedClient, createLink, linkSnapshot, randomIv, withToken } from "../../helpers/links";
import { dispatch } from "../../helpers/in-process";
import { approve, newAccount } from "../../helpers/forms";
import { databaseFingerprint } from "../../helpers/hostile";
import { approvedDevice, CLIENT_ID, deviceAuthorized, exchange, introspect, ownerToken, refresh, revoke, tokensOf, type Tokens } from "../../helpers/oauth";

// DPoP (RFC 9449): tokens bound to a client's key at the token endpoint (and by a device
// authorization or a token pickup that carries a proof), and every refusal of a proof, at the
// token endpoint (OAuth's 400) and where an access token is taken (401 with a DPoP challenge).

afterEach(() => {
  vi.useRealTimers();
});

const TOKEN_PATH = "/api/oauth/token";
const DEVICE_PATH = "/api/oauth/device_authorization";
const linkPath = (projectId: string, iv: string) => `/api/projects/${projectId}/link/${iv}`;

const proofHeader = async (key: DpopKey, options: ProofOptions) => ({ dpop: await dpopProof(key, options) });

/** An approved device code exchanged with a proof of `key`: a DPoP-bound token. */
async function boundToken(key: DpopKey) {
  const device = await approvedDevice("DPoP app");
  const response = await exchange(device.device_code, undefined, await proofHeader(key, { method: "POST", url: TOKEN_PATH }));
  expect(response.status).toBe(200);
  const token = (await response.json()) as { access_token: string; token_type: string; project_id: string };
  return { ...token, initId: device.initId };
}

const dpopLink = async (key: DpopKey, token: string, projectId: string, iv: string, options: Partial<ProofOptions> = {}) =>
  createLink(projectId, iv, { authorization: `DPoP ${token}`, ...(await proofHeader(key, { method: "POST", url: linkPath(projectId, iv), accessToken: token, ...options })) });

/** The nonce an answer carries is the current window's, or the previous one's when a window ended between the answer and this check. */
function expectCurrentNonce(response: Response) {
  const now = Date.now();
  expect([dpopNonce(config(), now), dpopNonce(config(), now - DPOP_NONCE_WINDOW_MS)]).toContain(response.headers.get("dpop-nonce"));
}

/** RFC 9449 §7.1: 401, the DPoP challenge naming the error (and, the project API's, its RFC 9728 metadata), and the body our errors carry. */
async function expectDpopRefusal(response: Response, code: string) {
  expect(response.status).toBe(401);
  expect(response.headers.get("www-authenticate")).toBe(
    `DPoP realm="initlink", error="${code}", algs="ES256 ES384 EdDSA Ed25519 PS256 RS256", resource_metadata="https://initlink.test/.well-known/oauth-protected-resource"`,
  );
  expectCurrentNonce(response);
  expect(await response.json()).toEqual({ success: false, error: expect.any(String), code });
}

/** RFC 9449 §5 at the token endpoint: OAuth's 400 `{error, error_description}`, with a nonce for the next proof. */
async function expectOAuthDpopError(response: Response, error: string) {
  expect(response.status).toBe(400);
  expectCurrentNonce(response);
  expect(await response.json()).toEqual({ error, error_description: expect.any(String) });
}

const now = () => Math.floor(Date.now() / 1000);

const once = <T>(make: () => Promise<T>) => {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
};
/** RSA keys, made once per file: one that signs (RS256), one under 2048 bits, and one with e = 3. */
const rsaSigner = once(() => rsaDpopKey(2048, 65537));
const smallRsaKey = once(() => rsaDpopKey(1024, 65537));
const rsaKeyWithExponent3 = once(() => rsaDpopKey(2048, 3));

/** Each broken proof (what it changes in a good proof for a POST to `path`), and the error it earns. */
const BROKEN_PROOFS: [string, "invalid_dpop_proof" | "use_dpop_nonce", (key: DpopKey, path: string) => Promise<Partial<ProofOptions>>][] = [
  // §4.3 check 3: typ dpop+jwt
  ["the typ JWT", "invalid_dpop_proof", async () => ({ header: { typ: "JWT" } })],
  // §4.3 check 5: a symmetric alg proves no private key
  ["a MAC (HS256)", "invalid_dpop_proof", async () => ({ header: { alg: "HS256" }, signingKey: new Uint8Array(32).fill(7) })],
  // §4.3 check 5: an asymmetric alg, but not one we take
  ["ES512, not on the allow-list", "invalid_dpop_proof", async () => {
    const other = await newDpopKey("ES512");
    return { header: { alg: "ES512", jwk: other.publicJwk }, signingKey: other.privateKey };
  }],
  // §4.3 check 7: jwk must be a public key
  ["a private key in jwk", "invalid_dpop_proof", async (key) => ({ header: { jwk: await exportJWK(key.privateKey) } })],
  ["no jwk", "invalid_dpop_proof", async () => ({ header: { jwk: undefined } })],
  // §4.3 check 6: the signature is the embedded key's
  ["a jwk that did not sign it", "invalid_dpop_proof", async () => ({ header: { jwk: (await newDpopKey()).publicJwk } })],
  // §4.3 checks 8–9
  ["another method (htm)", "invalid_dpop_proof", async () => ({ method: "GET" })],
  ["another URL (htu)", "invalid_dpop_proof", async (_key, path) => ({ url: `${path}x` })],
  ["another origin (htu: the request's Host, not APP_URL)", "invalid_dpop_proof", async (_key, path) => ({ url: `http://localhost:3000${path}` })],
  // §4.3 check 11: iat within the window
  ["an iat 3 minutes old", "invalid_dpop_proof", async () => ({ iat: now() - 180 })],
  ["an iat a minute ahead", "invalid_dpop_proof", async () => ({ iat: now() + 60 })],
  ["no iat", "invalid_dpop_proof", async () => ({ claims: { iat: undefined } })],
  ["no jti", "invalid_dpop_proof", async () => ({ claims: { jti: undefined } })],
  // §8: the server's nonce, and a current one
  ["no nonce", "use_dpop_nonce", async () => ({ nonce: null })],
  ["a nonce two windows old", "use_dpop_nonce", async () => ({ nonce: dpopNonce(config(), Date.now() - 2 * DPOP_NONCE_WINDOW_MS) })],
  ["a nonce of our making but forged", "use_dpop_nonce", async () => ({ nonce: "A".repeat(43) })],
  // An RSA key: a modulus of 2048 to 4096 bits and e = 65537, checked before any work (lib/oauth/dpop.ts)
  ["an RSA jwk under 2048 bits", "invalid_dpop_proof", async () => ({ header: { alg: "RS256", jwk: (await smallRsaKey()).publicJwk }, signingKey: (await rsaSigner()).privateKey })],
  ["an RSA key with e = 3 (it signed the proof)", "invalid_dpop_proof", async () => {
    const key = await rsaKeyWithExponent3();
    return { header: { alg: "RS256", jwk: key.publicJwk }, signingKey: key.privateKey };
  }],
  ["an RSA jwk of 16,384 bits with e = 2^64 − 1", "invalid_dpop_proof", async () => ({ header: { alg: "RS256", jwk: hugeRsaJwk(16_384) }, signingKey: (await rsaSigner()).privateKey })],
  // RFC 7517 §4.3: a key for decryption only verifies nothing
  ["a jwk whose key_ops are decrypt only", "invalid_dpop_proof", async (key) => ({ header: { jwk: { ...key.publicJwk, key_ops: ["decrypt"] } } })],
];

describe("the token endpoint with a DPoP proof (RFC 9449 §5)", () => {
  it("binds the token to the proof's key: token_type DPoP, the key's thumbprint stored", async () => {
    const key = await newDpopKey();
    const device = await approvedDevice();
    const response = await exchange(device.device_code, undefined, await proofHeader(key, { method: "POST", url: TOKEN_PATH }));
    expect(response.status).toBe(200);
    expectCurrentNonce(response);
    const token = (await response.json()) as { access_token: string; token_type: string; project_id: string };
    expect(token.token_type).toBe("DPoP");
    const prisma = await db();
    const row = await prisma.accessToken.findFirstOrThrow({ where: { projectId: token.project_id } });
    expect(row.dpopJkt).toBe(await calculateJwkThumbprint(key.publicJwk));
  });

  it("gives a Bearer token, as before, to a request without a proof", async () => {
    const device = await approvedDevice();
    const response = await exchange(device.device_code);
    expect(await response.json()).toMatchObject({ token_type: "Bearer" });
  });

  it.each([...BROKEN_PROOFS, ["a proof that is no JWT", "invalid_dpop_proof", async () => ({})] as const])(
    "refuses %s with %s, writing nothing, and the code still works with a good proof",
    async (_, error, broken) => {
      const key = await newDpopKey();
      const device = await approvedDevice();
      const before = { ...(await databaseSnapshot()), ...(await linkSnapshot()), proofs: await (await db()).dpopProof.count() };
      const proof = _ === "a proof that is no JWT" ? "not.a.jwt" : await dpopProof(key, { method: "POST", url: TOKEN_PATH, ...(await broken(key, TOKEN_PATH)) });
      await expectOAuthDpopError(await exchange(device.device_code, undefined, { dpop: proof }), error);
      expect({ ...(await databaseSnapshot()), ...(await linkSnapshot()), proofs: await (await db()).dpopProof.count() }).toEqual(before);
      const good = await exchange(device.device_code, undefined, await proofHeader(key, { method: "POST", url: TOKEN_PATH }));
      expect(await good.json()).toMatchObject({ token_type: "DPoP" });
    },
  );

  it("says why it refuses an RSA key out of 2048 to 4096 bits or with e other than 65537, refused before its signature is checked", async () => {
    const signer = await rsaSigner();
    for (const jwk of [hugeRsaJwk(16_384), hugeRsaJwk(4104), (await rsaKeyWithExponent3()).publicJwk, (await smallRsaKey()).publicJwk]) {
      const device = await approvedDevice();
      const proof = await dpopProof(signer, { method: "POST", url: TOKEN_PATH, header: { alg: "RS256", jwk } });
      const response = await exchange(device.device_code, undefined, { dpop: proof });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: "invalid_dpop_proof", error_description: "The DPoP proof's RSA key must have a modulus of 2048 to 4096 bits and the exponent 65537." });
    }
  });

  it("refuses a proof used before (§11.1), at once", async () => {
    const key = await newDpopKey();
    const device = await approvedDevice();
    const proof = await proofHeader(key, { method: "POST", url: TOKEN_PATH, jti: "one-jti" });
    const first = await exchange(device.device_code, undefined, proof);
    expect(first.status).toBe(200);
    const second = await approvedDevice();
    await expectOAuthDpopError(await exchange(second.device_code, undefined, proof), "invalid_dpop_proof");
  });
});

describe("a device authorization with a DPoP proof binds the whole transaction to its key", () => {
  it("stores the key, and the device code yields a token to that key only", async () => {
    const key = await newDpopKey();
    const thief = await newDpopKey();
    const device = await approvedDevice("Bound device", await proofHeader(key, { method: "POST", url: DEVICE_PATH }));
    const prisma = await db();
    expect((await prisma.init.findUniqueOrThrow({ where: { id: device.initId } })).dpopJkt).toBe(await calculateJwkThumbprint(key.publicJwk));
    // A stolen device code: with another key, as a plain request, or at the status resource's pickup.
    await expectOAuthDpopError(await exchange(device.device_code, undefined, await proofHeader(thief, { method: "POST", url: TOKEN_PATH })), "invalid_dpop_proof");
    await expectOAuthDpopError(await exchange(device.device_code), "invalid_dpop_proof");
    const before = await databaseSnapshot();
    const pickup = await dispatch("GET", `/api/init/${device.initId}`, { headers: { authorization: `Bearer ${device.device_code}` } });
    expect(pickup.status).toBe(401);
    expect(await pickup.json()).toMatchObject({ code: "invalid_dpop_proof" });
    // Refused before the poll is recorded, as a wrong secret is.
    expect(await databaseSnapshot()).toEqual(before);
    expect((await prisma.init.findUniqueOrThrow({ where: { id: device.initId } })).accessTokenId).toBeNull();
    const good = await exchange(device.device_code, undefined, await proofHeader(key, { method: "POST", url: TOKEN_PATH }));
    expect(await good.json()).toMatchObject({ token_type: "DPoP" });
  });

  // RFC 8628 §3.5 before RFC 9449 §4.3: the poll clock first, then the proof's signature and its jti.
  it("verifies and spends the proofs of only the polls the clock admits: of 50 concurrent polls of a pending code, 1 pending and 49 slow_down, 1 proof stored", async () => {
    const key = await newDpopKey();
    const device = await deviceAuthorized(CLIENT_ID, await proofHeader(key, { method: "POST", url: DEVICE_PATH }));
    // A poll whose proof lacks the nonce is refused before the clock: the client's retry is on time.
    await expectOAuthDpopError(await exchange(device.device_code, undefined, await proofHeader(key, { method: "POST", url: TOKEN_PATH, nonce: null })), "use_dpop_nonce");
    const proofs = await Promise.all(Array.from({ length: 50 }, () => proofHeader(key, { method: "POST", url: TOKEN_PATH })));
    const prisma = await db();
    const before = await prisma.dpopProof.count();
    const answers = await Promise.all(proofs.map((proof) => exchange(device.device_code, undefined, proof)));
    const errors = await Promise.all(answers.map(async (answer) => ((await answer.json()) as { error: string }).error));
    expect(errors.sort()).toEqual(["authorization_pending", ...Array(49).fill("slow_down")]);
    expect(await prisma.dpopProof.count()).toBe(before + 1);
  });

  it("refuses a device authorization with a broken proof, making no init", async () => {
    const key = await newDpopKey();
    const before = await databaseSnapshot();
    const response = await dispatch("POST", DEVICE_PATH, {
      body: "client_id=%40acme%2Fcli",
      headers: { "content-type": "application/x-www-form-urlencoded", ...(await proofHeader(key, { method: "POST", url: TOKEN_PATH })) },
    });
    await expectOAuthDpopError(response, "invalid_dpop_proof");
    expect(await databaseSnapshot()).toEqual(before);
  });
});

describe("the token pickup with a DPoP proof (the typed client's way)", () => {
  it("binds the token the status resource hands out to the proof's key", async () => {
    const key = await newDpopKey();
    const created = await dispatch("POST", "/api/init", { body: JSON.stringify({ sender: "@acme/cli" }), headers: { "content-type": "application/json" } });
    // Create Init's answer carries the first nonce.
    expectCurrentNonce(created);
    const init = (await created.json()) as { id: string; secret: string; user_code: string };
    const person = await newAccount();
    await approve(init.id, person.token, { project: "new", name: "Picked up", code_confirmed: "yes" });
    const path = `/api/init/${init.id}`;
    const answer = await dispatch("GET", path, { headers: { authorization: `Bearer ${init.secret}`, ...(await proofHeader(key, { method: "GET", url: path })) } });
    expect(answer.status).toBe(200);
    const status = (await answer.json()) as { access_token: string; project: { id: string } };
    const prisma = await db();
    expect((await prisma.accessToken.findFirstOrThrow({ where: { projectId: status.project.id } })).dpopJkt).toBe(await calculateJwkThumbprint(key.publicJwk));
    expect((await dpopLink(key, status.access_token, status.project.id, randomIv())).status).toBe(200);
  });
});

describe("refresh of a login the device-code exchange bound to a key (RFC 9449 §5)", () => {
  const refreshProof = (key: DpopKey) => proofHeader(key, { method: "POST", url: TOKEN_PATH });
  const thumbprint = (key: DpopKey) => calculateJwkThumbprint(key.publicJwk);

  /** An approved device code exchanged with a proof of `key`: the login's first tokens, bound. */
  async function boundLogin(key: DpopKey) {
    const device = await approvedDevice("DPoP login");
    const tokens = await tokensOf(await exchange(device.device_code, undefined, await refreshProof(key)));
    const prisma = await db();
    const owner = await prisma.user.findUniqueOrThrow({ where: { email: device.person.email }, select: { id: true } });
    return { tokens, userId: owner.id };
  }

  const nothingWritten = async () => ({ ...(await databaseFingerprint()), proofs: await (await db()).dpopProof.count() });

  it("stores the key on the login; a refresh with a proof of it answers a bound token, and refreshes again", async () => {
    const key = await newDpopKey();
    const { tokens, userId } = await boundLogin(key);
    expect(tokens.token_type).toBe("DPoP");
    const prisma = await db();
    expect((await prisma.oAuthLogin.findFirstOrThrow({ where: { userId } })).dpopJkt).toBe(await thumbprint(key));

    const response = await refresh(tokens.refresh_token, undefined, await refreshProof(key));
    expectCurrentNonce(response);
    const refreshed = await tokensOf(response);
    expect(refreshed).toMatchObject({ token_type: "DPoP", access_token: expect.stringMatching(/^ilat_/), refresh_token: expect.stringMatching(/^ilrt_/) });
    expect((await prisma.accessToken.findUniqueOrThrow({ where: { tokenHash: hashSecret(refreshed.access_token) } })).dpopJkt).toBe(await thumbprint(key));
    // The new access token is bound: it links with a proof of the key, and not as a bearer.
    expect((await dpopLink(key, refreshed.access_token, refreshed.project_id, randomIv())).status).toBe(200);
    await expectDpopRefusal(await createLink(refreshed.project_id, randomIv(), withToken(refreshed.access_token)), "invalid_token");
    // RFC 7662 with RFC 9449 §6.2: introspection names the key of both tokens.
    const verifier = await ownerToken(userId, "all");
    const jkt = await thumbprint(key);
    expect(await introspect(refreshed.access_token, verifier)).toMatchObject({ active: true, token_type: "DPoP", cnf: { jkt } });
    expect(await introspect(refreshed.refresh_token, verifier)).toMatchObject({ active: true, token_type: "refresh_token", cnf: { jkt } });
    expect(await tokensOf(await refresh(refreshed.refresh_token, undefined, await refreshProof(key)))).toMatchObject({ token_type: "DPoP" });
  });

  it.each([
    ["no proof", async () => ({})],
    ["a proof of another key", async () => refreshProof(await newDpopKey())],
    ["a broken proof of the key", async (key: DpopKey) => proofHeader(key, { method: "POST", url: `${TOKEN_PATH}x` })],
  ])("refuses a refresh with %s (invalid_dpop_proof), writing nothing; the key's proof still refreshes", async (_, headers) => {
    const key = await newDpopKey();
    const { tokens } = await boundLogin(key);
    const before = await nothingWritten();
    await expectOAuthDpopError(await refresh(tokens.refresh_token, undefined, await headers(key)), "invalid_dpop_proof");
    expect(await nothingWritten()).toEqual(before);
    expect(await tokensOf(await refresh(tokens.refresh_token, undefined, await refreshProof(key)))).toMatchObject({ token_type: "DPoP" });
  });

  it("refuses a proof without the current nonce with use_dpop_nonce, writing nothing", async () => {
    const key = await newDpopKey();
    const { tokens } = await boundLogin(key);
    const before = await nothingWritten();
    await expectOAuthDpopError(await refresh(tokens.refresh_token, undefined, await proofHeader(key, { method: "POST", url: TOKEN_PATH, nonce: null })), "use_dpop_nonce");
    expect(await nothingWritten()).toEqual(before);
  });

  it("takes a retired bound refresh token as reuse only with the key's proof: without it, nothing is revoked", async () => {
    const key = await newDpopKey();
    const { tokens, userId } = await boundLogin(key);
    const second = await tokensOf(await refresh(tokens.refresh_token, undefined, await refreshProof(key)));
    await tokensOf(await refresh(second.refresh_token, undefined, await refreshProof(key)));
    // A copy of the first refresh token without the key: refused for its proof, the login lives on.
    const before = await nothingWritten();
    await expectOAuthDpopError(await refresh(tokens.refresh_token), "invalid_dpop_proof");
    expect(await nothingWritten()).toEqual(before);
    const prisma = await db();
    expect((await prisma.oAuthLogin.findFirstOrThrow({ where: { userId } })).revokedAt).toBeNull();
    // With the key (the key and the token both copied): reuse, the login revoked.
    const reused = await refresh(tokens.refresh_token, undefined, await refreshProof(key));
    expect(reused.status).toBe(400);
    expect(await reused.json()).toMatchObject({ error: "invalid_grant" });
    expect((await prisma.oAuthLogin.findFirstOrThrow({ where: { userId } })).revokedReason).toBe("reuse");
  });

  it("of 20 concurrent refreshes of one bound token, each with its own proof, exactly one succeeds", async () => {
    const key = await newDpopKey();
    const { tokens } = await boundLogin(key);
    const proofs = await Promise.all(Array.from({ length: 20 }, () => refreshProof(key)));
    const answers = await Promise.all(proofs.map((proof) => refresh(tokens.refresh_token, undefined, proof)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 400)).toHaveLength(19);
  });

  it("revokes a bound login (RFC 7009) for its current refresh token without a proof: a client logs out without one", async () => {
    const key = await newDpopKey();
    const { tokens, userId } = await boundLogin(key);
    expect((await revoke(tokens.refresh_token)).status).toBe(200);
    const verifier = await ownerToken(userId, "all");
    expect(await introspect(tokens.access_token, verifier)).toEqual({ active: false });
  });

  // RFC 7009 §2.2: a retired token is no longer valid, so there is nothing it can end.
  it("revokes nothing for a retired refresh token of a bound login: the client's next refresh works", async () => {
    const key = await newDpopKey();
    const { tokens } = await boundLogin(key);
    const next = await tokensOf(await refresh(tokens.refresh_token, undefined, await refreshProof(key)));
    const before = await nothingWritten();
    expect((await revoke(tokens.refresh_token)).status).toBe(200);
    expect(await nothingWritten()).toEqual(before);
    expect(await tokensOf(await refresh(next.refresh_token, undefined, await refreshProof(key)))).toMatchObject({ token_type: "DPoP" });
  });

  it("takes a bound login's token the latest refresh retired, presented again soon with the key's proof from another address, for a lost race: the key is the client", async () => {
    const key = await newDpopKey();
    const { tokens, userId } = await boundLogin(key);
    const next = await tokensOf(await refresh(tokens.refresh_token, undefined, await refreshProof(key)));
    const elsewhere = { "x-initlink-peer": "198.51.100.7", "user-agent": "another-cli/2.0" };
    const before = await databaseFingerprint();
    const lost = await refresh(tokens.refresh_token, undefined, { ...(await refreshProof(key)), ...elsewhere });
    expect(lost.status).toBe(400);
    expect(await lost.json()).toMatchObject({ error: "invalid_grant" });
    expect(await databaseFingerprint()).toEqual(before);
    expect((await (await db()).oAuthLogin.findFirstOrThrow({ where: { userId } })).revokedAt).toBeNull();
    expect(await tokensOf(await refresh(next.refresh_token, undefined, await refreshProof(key)))).toMatchObject({ token_type: "DPoP" });
  });

  it("keeps an unbound login unbound: a proof on its refresh binds the new access token only", async () => {
    const key = await newDpopKey();
    const device = await approvedDevice("Bearer login");
    const tokens: Tokens = await tokensOf(await exchange(device.device_code));
    expect(tokens.token_type).toBe("Bearer");
    const bound = await tokensOf(await refresh(tokens.refresh_token, undefined, await refreshProof(key)));
    expect(bound.token_type).toBe("DPoP");
    expect((await dpopLink(key, bound.access_token, bound.project_id, randomIv())).status).toBe(200);
    const prisma = await db();
    expect((await prisma.oAuthLogin.findFirstOrThrow({ where: { projectId: tokens.project_id } })).dpopJkt).toBeNull();
    // Its refresh token is not bound: without a proof it refreshes to a bearer token.
    const bearer = await tokensOf(await refresh(bound.refresh_token));
    expect(bearer.token_type).toBe("Bearer");
    expect((await createLink(bearer.project_id, randomIv(), withToken(bearer.access_token))).status).toBe(200);
  });
});

describe("a DPoP-bound token where access tokens are taken (Create Project Link, RFC 9449 §7)", () => {
  it("links with Authorization: DPoP and a proof of its key, the answer carrying the next nonce", async () => {
    const key = await newDpopKey();
    const token = await boundToken(key);
    const response = await dpopLink(key, token.access_token, token.project_id, randomIv());
    expect(response.status).toBe(200);
    expectCurrentNonce(response);
    expect(await response.json()).toMatchObject({ success: true });
  });

  it.each(BROKEN_PROOFS)("refuses %s with 401 %s, writing nothing", async (_, code, broken) => {
    const key = await newDpopKey();
    const token = await boundToken(key);
    const iv = randomIv();
    const before = { ...(await linkSnapshot()), proofs: await (await db()).dpopProof.count() };
    await expectDpopRefusal(await dpopLink(key, token.access_token, token.project_id, iv, await broken(key, linkPath(token.project_id, iv))), code);
    expect({ ...(await linkSnapshot()), proofs: await (await db()).dpopProof.count() }).toEqual(before);
  });

  it("refuses a proof whose ath is another token's", async () => {
    const key = await newDpopKey();
    const token = await boundToken(key);
    const iv = randomIv();
    await expectDpopRefusal(await dpopLink(key, token.access_token, token.project_id, iv, { accessToken: "ilat_another" }), "invalid_dpop_proof");
    await expectDpopRefusal(await dpopLink(key, token.access_token, token.project_id, iv, { claims: { ath: undefined } }), "invalid_dpop_proof");
  });

  it("refuses a proof from another key than the token's", async () => {
    const key = await newDpopKey();
    const token = await boundToken(key);
    await expectDpopRefusal(await dpopLink(await newDpopKey(), token.access_token, token.project_id, randomIv()), "invalid_dpop_proof");
  });

  it("refuses the bound token as a plain bearer, and under DPoP without a proof", async () => {
    const key = await newDpopKey();
    const token = await boundToken(key);
    await expectDpopRefusal(await createLink(token.project_id, randomIv(), withToken(token.access_token)), "invalid_token");
    await expectDpopRefusal(await createLink(token.project_id, randomIv(), { authorization: `DPoP ${token.access_token}` }), "invalid_dpop_proof");
  });

  it("refuses an unbound token under the DPoP scheme, and takes it as a bearer as before", async () => {
    const client = await approvedClient();
    const key = await newDpopKey();
    const iv = randomIv();
    const refused = await dpopLink(key, client.accessToken, client.projectId, iv);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: "invalid_token" });
    expect((await createLink(client.projectId, iv, withToken(client.accessToken))).status).toBe(200);
  });

  it("refuses a replayed proof", async () => {
    const key = await newDpopKey();
    const token = await boundToken(key);
    const iv = randomIv();
    const headers = { authorization: `DPoP ${token.access_token}`, ...(await proofHeader(key, { method: "POST", url: linkPath(token.project_id, iv), accessToken: token.access_token })) };
    expect((await createLink(token.project_id, iv, headers)).status).toBe(200);
    await expectDpopRefusal(await createLink(token.project_id, iv, headers), "invalid_dpop_proof");
  });

  // §11.1: the replay check is one unique insert, shared by every process.
  it("accepts exactly one of 20 concurrent requests with one proof", async () => {
    const key = await newDpopKey();
    const token = await boundToken(key);
    const iv = randomIv();
    const headers = { authorization: `DPoP ${token.access_token}`, ...(await proofHeader(key, { method: "POST", url: linkPath(token.project_id, iv), accessToken: token.access_token })) };
    const answers = await Promise.all(Array.from({ length: 20 }, () => createLink(token.project_id, iv, headers)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 401)).toHaveLength(19);
  });

  it("takes a nonce of the window before, and the sweep deletes spent proofs past their window", async () => {
    const key = await newDpopKey();
    const token = await boundToken(key);
    const previous = dpopNonce(config(), Date.now() - DPOP_NONCE_WINDOW_MS);
    expect((await dpopLink(key, token.access_token, token.project_id, randomIv(), { nonce: previous })).status).toBe(200);
    const prisma = await db();
    expect(await prisma.dpopProof.count()).toBeGreaterThan(0);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 10 * 60_000);
    expect((await sweep(config())).dpopProofs).toBeGreaterThan(0);
    expect(await prisma.dpopProof.count({ where: { expiresAt: { lt: new Date() } } })).toBe(0);
  });
});
