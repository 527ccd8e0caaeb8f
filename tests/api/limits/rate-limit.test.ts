import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { signInDelayMs } from "@/lib/auth/password-check";
import { addressSubject } from "@/lib/limits/rate-limit";
import { db } from "@/lib/database/db";
import { randomId } from "@/lib/secrets";
import { createdInit, createInitJson, getInitStatus, rateLimitCounter } from "../../helpers/api";
import { approve, sessionTokenOf, signIn, signUp } from "../../helpers/forms";
import { approvedClient, createLink, randomIv, withToken } from "../../helpers/links";
import { startInFreshWindow } from "../../helpers/clock";
import { dpopProof, newDpopKey } from "../../helpers/dpop";
import { authorizationQuery, authorizeRequest, basicAuthorization, ownerToken, pkcePair, postDeviceAuthorization, postIntrospection, REDIRECT_URI, resourceServer } from "../../helpers/oauth";

// This file runs low limits.
vi.hoisted(() => {
  Object.assign(process.env, {
    CREATE_INIT_PER_MINUTE: "3",
    SIGN_IN_PER_ADDRESS_PER_MINUTE: "6",
    SIGN_IN_FAILURES_PER_15_MINUTES: "3",
    LINKS_PER_TOKEN_PER_MINUTE: "3",
    PICKUPS_PER_INIT_PER_MINUTE: "2",
    INTROSPECTIONS_PER_TOKEN_PER_MINUTE: "3",
    INTROSPECTIONS_PER_RESOURCE_SERVER_PER_MINUTE: "2",
  });
});

const from = (address: string) => ({ "x-initlink-peer": address });

// Windows are fixed minutes: each test starts at the beginning of one, so no count resets halfway.
beforeEach(() => startInFreshWindow(60_000));

afterEach(() => {
  vi.useRealTimers();
});

describe("Create Init per client address", () => {
  it("answers 429 with Retry-After past the limit, writing no init, and counts each address apart", async () => {
    const prisma = await db();
    for (let i = 0; i < 3; i++) expect((await createInitJson({ sender: "@acme/cli" }, from("192.0.2.1"))).status).toBe(201);
    const refused = await createInitJson({ sender: "@acme/cli" }, from("192.0.2.1"));
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await refused.json()).toMatchObject({ code: "rate_limited", error: expect.stringContaining("at most 3 per 60 s") });
    expect(await prisma.init.count()).toBe(3);
    // A refused request writes nothing.
    expect((await rateLimitCounter("create-init:192.0.2.1"))?.count).toBe(3);
    expect((await createInitJson({ sender: "@acme/cli" }, from("192.0.2.1"))).status).toBe(429);
    expect((await rateLimitCounter("create-init:192.0.2.1"))?.count).toBe(3);
    expect((await createInitJson({ sender: "@acme/cli" }, from("192.0.2.2"))).status).toBe(201);
  });

  it("does not count requests refused as invalid", async () => {
    for (let i = 0; i < 5; i++) expect((await createInitJson({ sender: "" }, from("198.51.100.7"))).status).toBe(400);
    expect((await createInitJson({ sender: "@acme/cli" }, from("198.51.100.7"))).status).toBe(201);
  });

  it("holds exactly under 60 concurrent requests, and the refused ones write no init", async () => {
    const prisma = await db();
    const before = await prisma.init.count();
    const answers = await Promise.all(Array.from({ length: 60 }, () => createInitJson({ sender: "@acme/cli" }, from("203.0.113.9"))));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(3);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(57);
    expect(await prisma.init.count()).toBe(before + 3);
  });

  // RFC 9449 §11.1: a device authorization's proof is verified, and its jti stored, only once the limit lets it through.
  it("verifies the DPoP proofs of only the device authorizations it serves: of 50 concurrent ones, 3 proofs stored", async () => {
    const prisma = await db();
    const key = await newDpopKey();
    const proofs = await Promise.all(Array.from({ length: 50 }, () => dpopProof(key, { method: "POST", url: "/api/oauth/device_authorization" })));
    const before = await prisma.dpopProof.count();
    const answers = await Promise.all(proofs.map((proof) => postDeviceAuthorization({ client_id: "@acme/cli" }, { dpop: proof, ...from("203.0.113.10") })));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(3);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(47);
    expect(await prisma.dpopProof.count()).toBe(before + 3);
  });

  it("limits IPv6 clients by /64", async () => {
    expect(addressSubject("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressSubject("2001:0db8:0001:0002:ffff:1:2:3")).toBe("2001:db8:1:2::/64");
    expect(addressSubject("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressSubject("::1")).toBe("0:0:0:0::/64");
    for (let i = 0; i < 3; i++) expect((await createInitJson({ sender: "@acme/cli" }, from(`2001:db8:5:6::${i + 1}`))).status).toBe(201);
    expect((await createInitJson({ sender: "@acme/cli" }, from("2001:db8:5:6:ffff::9"))).status).toBe(429);
    expect((await createInitJson({ sender: "@acme/cli" }, from("2001:db8:5:7::1"))).status).toBe(201);
  });
});

const PASSWORD = "correct horse battery";
const errorOf = (response: Response) => new URL(response.headers.get("location") ?? "", "https://initlink.test").searchParams.get("error");

describe("sign-in limits", () => {
  it("per account and address: a guesser is stopped, but the owner elsewhere still signs in, after a short wait", async () => {
    const email = `guessed-${Date.now()}@example.com`;
    expect(errorOf(await signUp({ email, password: PASSWORD }, "", from("192.0.2.10")))).toBeNull();
    for (let i = 0; i < 3; i++) expect(errorOf(await signIn({ email, password: "wrong password!" }, "", from("192.0.2.11")))).toBe("invalid_credentials");
    // The guessing address may not try this account again in the window, even with the password.
    expect(errorOf(await signIn({ email, password: PASSWORD }, "", from("192.0.2.11")))).toBe("rate_limited");
    // The owner, from their own address, is never locked out: the attempt waits (1 s after
    // three failures), then succeeds.
    // The monotonic clock: Date.now() is the one the suite's clock helpers move.
    const started = performance.now();
    expect(errorOf(await signIn({ email, password: PASSWORD }, "", from("192.0.2.12")))).toBeNull();
    expect(performance.now() - started).toBeGreaterThanOrEqual(900);
  });

  it("grows the wait with each failure on an account, up to 10 s", () => {
    expect([0, 2, 3, 4, 5, 6, 7, 20].map((failures) => signInDelayMs(failures, 3))).toEqual([0, 0, 1000, 2000, 4000, 8000, 10_000, 10_000]);
  });

  it("per address: sign-ins and sign-ups from one address share a limit", async () => {
    // Seven password checks at scrypt's cost can outlast the few seconds beforeEach leaves in a
    // window: the clock stands still inside one.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Math.ceil(Date.now() / 60_000) * 60_000 + 1000);
    const answers = [];
    for (let i = 0; i < 7; i++) answers.push(errorOf(await signIn({ email: `nobody${i}@example.com`, password: PASSWORD }, "", from("192.0.2.20"))));
    expect(answers.slice(0, 6)).toEqual(Array(6).fill("invalid_credentials"));
    expect(answers[6]).toBe("rate_limited");
    expect(errorOf(await signUp({ email: `new-${Date.now()}@example.com`, password: PASSWORD }, "", from("192.0.2.20")))).toBe("rate_limited");
  });

  it("per address: of 30 concurrent sign-ups from one address exactly 6 make an account", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Math.ceil(Date.now() / 60_000) * 60_000 + 1000);
    const prefix = `burst-${Date.now()}`;
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => signUp({ email: `${prefix}-${i}@example.com`, password: PASSWORD }, "", from("192.0.2.21"))));
    const errors = answers.map(errorOf);
    expect(errors.filter((error) => error === null)).toHaveLength(6);
    expect(errors.filter((error) => error === "rate_limited")).toHaveLength(24);
    const prisma = await db();
    expect(await prisma.user.count({ where: { email: { startsWith: prefix } } })).toBe(6);
  });
});

describe("per-token and per-init limits", () => {
  it("limits Create Project Link per access token", async () => {
    const client = await approvedClient();
    for (let i = 0; i < 3; i++) expect((await createLink(client.projectId, randomIv(), withToken(client.accessToken))).status).toBe(200);
    const refused = await createLink(client.projectId, randomIv(), withToken(client.accessToken));
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ success: false, code: "rate_limited" });

  });

  it("limits status requests with the secret (the token pickup) per init", async () => {
    const init = await createdInit();
    const account = await signUp({ email: `picker-${Date.now()}@example.com`, password: PASSWORD }, "", from("192.0.2.30"));
    const session = sessionTokenOf(account);
    if (session === null) throw new Error("sign-up failed");
    await approve(init.id, session, { project: "new", name: "Picked", code_confirmed: "yes" });
    // Pickups an interval apart (the poll clock's pace), all inside one window of the limit.
    vi.useFakeTimers({ toFake: ["Date"] });
    const windowStart = Math.ceil(Date.now() / 60_000) * 60_000;
    const pickup = (nth: number) => {
      vi.setSystemTime(windowStart + nth * init.interval);
      return getInitStatus(init.id, { authorization: `Bearer ${init.secret}` });
    };
    expect((await pickup(0)).status).toBe(200);
    expect((await pickup(1)).status).toBe(200);
    const refused = await pickup(2);
    expect(refused.status).toBe(429);
    expect((await refused.json()).code).toBe("rate_limited");
    // Polling without the secret is not a pickup and stays available.
    expect((await getInitStatus(init.id, { "user-agent": "page" })).status).toBe(200);
  });

  it("limits token introspections (RFC 7662) per access token that authenticates them, in the OAuth error shape", async () => {
    const client = await approvedClient();
    const credential = await ownerToken(client.userId, client.projectId);
    const introspect = (authorization: string) => postIntrospection({ token: client.accessToken }, { authorization: `Bearer ${authorization}` });
    for (let i = 0; i < 3; i++) expect(await (await introspect(credential)).json()).toMatchObject({ active: true });
    const refused = await introspect(credential);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Object.keys((await refused.json()) as object).sort()).toEqual(["error", "error_description"]);
    // Another credential counts apart.
    expect((await introspect(await ownerToken(client.userId, "all"))).status).toBe(200);
  });

  it("limits them per resource-server credential, apart from access tokens; a refusal notes no use", async () => {
    // An owner and a project made directly: this file's Create Init and sign-in limits are low,
    // and count across its tests within one minute.
    const prisma = await db();
    const client = { userId: randomId(), ownProject: randomId() };
    await prisma.user.create({ data: { id: client.userId, email: `${client.userId}@example.com`, passwordHash: "-", createdAt: new Date() } });
    await prisma.project.create({ data: { id: client.ownProject, name: "Platform", ownerId: client.userId, createdAt: new Date() } });
    const token = await ownerToken(client.userId, client.ownProject);
    const platform = await resourceServer(client.userId, [client.ownProject]);
    const introspect = (authorization: string) => postIntrospection({ token }, { authorization });
    for (let i = 0; i < 2; i++) expect(await (await introspect(basicAuthorization(platform))).json()).toMatchObject({ active: true });
    await prisma.resourceServerCredential.update({ where: { id: platform.clientId }, data: { lastUsedAt: null } });
    const refused = await introspect(basicAuthorization(platform));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Object.keys((await refused.json()) as object).sort()).toEqual(["error", "error_description"]);
    expect((await prisma.resourceServerCredential.findUniqueOrThrow({ where: { id: platform.clientId } })).lastUsedAt).toBeNull();
    // An access token of the same owner, and another credential, count apart.
    expect((await introspect(`Bearer ${token}`)).status).toBe(200);
    expect((await introspect(basicAuthorization(await resourceServer(client.userId, [client.ownProject])))).status).toBe(200);
  });
});

describe("authorization requests per client address", () => {
  it("counts authorization requests with Create Init, and sends the client temporarily_unavailable past the limit, writing no init", async () => {
    const prisma = await db();
    const query = authorizationQuery(pkcePair().challenge);
    for (let i = 0; i < 3; i++) expect((await authorizeRequest(query, from("192.0.2.40"))).headers.get("location")).toMatch(/\/init\//);
    const refused = new URL((await authorizeRequest(query, from("192.0.2.40"))).headers.get("location") ?? "");
    expect(`${refused.origin}${refused.pathname}`).toBe(REDIRECT_URI);
    expect(refused.searchParams.get("error")).toBe("temporarily_unavailable");
    expect(await prisma.init.count({ where: { observedIp: "192.0.2.40" } })).toBe(3);
  });
});
