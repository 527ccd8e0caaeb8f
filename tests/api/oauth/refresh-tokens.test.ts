import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/database/db";
import { CONCURRENT_REFRESH_GRACE_MS } from "@/lib/oauth/refresh-tokens";
import { databaseFingerprint } from "../../helpers/hostile";
import { createLink, randomIv, withToken } from "../../helpers/links";
import { CLIENT_ID, loggedIn, postToken, refresh, revoke, tokensOf } from "../../helpers/oauth";

// Refresh tokens (RFC 6749 §6) with rotation and reuse detection (RFC 9700 §2.2.2, §4.14.2):
// lib/oauth/refresh-tokens.ts. Lifetimes are the defaults: a login lasts 365 days, a refresh
// token 30 days unused.

const DAY_MS = 24 * 60 * 60 * 1000;

afterEach(() => {
  vi.useRealTimers();
});

function travelTo(ms: number) {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(ms);
}

async function expectInvalidGrant(response: Response) {
  expect(response.status).toBe(400);
  expect(response.headers.get("cache-control")).toBe("no-store");
  const body = (await response.json()) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(["error", "error_description"]);
  expect(body.error).toBe("invalid_grant");
}

/** Another client holding a copy of the token: another address and User-Agent. */
const ELSEWHERE = { "x-initlink-peer": "198.51.100.7", "user-agent": "curl/8.5.0" };

const linkStatus = async (projectId: string, accessToken: string) => (await createLink(projectId, randomIv(), withToken(accessToken))).status;

describe("grant_type=refresh_token", () => {
  it("answers a new access token and a new refresh token for the same project, stored only as hashes", async () => {
    const { tokens } = await loggedIn();
    const refreshed = await tokensOf(await refresh(tokens.refresh_token));
    expect(refreshed).toEqual({
      access_token: expect.stringMatching(/^ilat_[A-Za-z0-9_-]{43}$/),
      token_type: "Bearer",
      expires_in: expect.any(Number),
      refresh_token: expect.stringMatching(/^ilrt_[A-Za-z0-9_-]{43}$/),
      project_id: tokens.project_id,
      project_url: tokens.project_url,
    });
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(await linkStatus(tokens.project_id, refreshed.access_token)).toBe(200);
    // The earlier access token lives on: rotation retires the refresh token only.
    expect(await linkStatus(tokens.project_id, tokens.access_token)).toBe(200);
    const prisma = await db();
    const stored = JSON.stringify(await prisma.refreshToken.findMany());
    expect(stored).not.toContain(tokens.refresh_token.slice(5));
    expect(stored).not.toContain(refreshed.refresh_token.slice(5));
    // Each refresh token is used once; the new one works in its turn.
    expect((await refresh(refreshed.refresh_token)).status).toBe(200);
  });

  it.each([
    ["no refresh_token", { grant_type: "refresh_token", client_id: CLIENT_ID }],
    ["no client_id", { grant_type: "refresh_token", refresh_token: "ilrt_x" }],
  ])("refuses %s with invalid_request", async (_, fields) => {
    const response = await postToken(fields);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "invalid_request" });
  });

  // RFC 6749 §5.2: invalid_grant, and nothing written.
  it("refuses an unknown, malformed or another client's refresh token with invalid_grant, writing nothing", async () => {
    const { tokens } = await loggedIn();
    const before = await databaseFingerprint();
    await expectInvalidGrant(await refresh("ilrt_AudKZwucI6wsqZhncOHqAlRHpNFbChlRx9Cx4zXg4jE"));
    await expectInvalidGrant(await refresh("not a refresh token"));
    await expectInvalidGrant(await refresh(tokens.access_token));
    await expectInvalidGrant(await refresh(tokens.refresh_token, "@someone/else"));
    expect(await databaseFingerprint()).toEqual(before);
    // Another client's attempt did not count as a use.
    expect((await refresh(tokens.refresh_token)).status).toBe(200);
  });

  it("refuses a refresh token unused for REFRESH_TOKEN_IDLE_DAYS, writing nothing; one used in time goes on", async () => {
    const start = Date.now();
    const { tokens } = await loggedIn();
    travelTo(start + 29 * DAY_MS);
    const next = await tokensOf(await refresh(tokens.refresh_token));
    travelTo(start + 29 * DAY_MS + 30 * DAY_MS + 1000);
    const before = await databaseFingerprint();
    await expectInvalidGrant(await refresh(next.refresh_token));
    expect(await databaseFingerprint()).toEqual(before);
  });

  it("ends the login with the access lifetime the person chose (90 days preselected), however often it is refreshed; no access token outlives it", async () => {
    const start = Date.now();
    let { tokens } = await loggedIn();
    for (let day = 29; day <= 87; day += 29) {
      travelTo(start + day * DAY_MS);
      tokens = await tokensOf(await refresh(tokens.refresh_token));
    }
    // Refreshed on day 87: its access token ends with the login on day 90, not 90 days on.
    expect(tokens.expires_in).toBeLessThanOrEqual(3 * 24 * 60 * 60 + 60);
    expect(tokens.expires_in).toBeGreaterThan(2 * 24 * 60 * 60);
    travelTo(start + 90 * DAY_MS + 60_000);
    const before = await databaseFingerprint();
    await expectInvalidGrant(await refresh(tokens.refresh_token));
    expect(await databaseFingerprint()).toEqual(before);
  });

  it("refuses a refresh token of a login its client revoked, writing nothing more", async () => {
    const { tokens } = await loggedIn();
    expect((await revoke(tokens.refresh_token)).status).toBe(200);
    const before = await databaseFingerprint();
    await expectInvalidGrant(await refresh(tokens.refresh_token));
    expect(await databaseFingerprint()).toEqual(before);
  });
});

// RFC 9700 §4.14.2: a retired refresh token presented again revokes the whole family.
describe("reuse detection", () => {
  it("revokes the login, every access token of it, and records it in the approver's activity", async () => {
    const { tokens, userId } = await loggedIn("Reuse");
    const second = await tokensOf(await refresh(tokens.refresh_token));
    const third = await tokensOf(await refresh(second.refresh_token));
    // The first token is two refreshes back: reuse, however soon.
    await expectInvalidGrant(await refresh(tokens.refresh_token));
    // The current refresh token, and every access token the login issued, are revoked at once.
    await expectInvalidGrant(await refresh(third.refresh_token));
    for (const accessToken of [tokens.access_token, second.access_token, third.access_token]) expect(await linkStatus(tokens.project_id, accessToken)).toBe(401);
    const prisma = await db();
    const login = await prisma.oAuthLogin.findFirstOrThrow({ where: { userId } });
    expect(login).toMatchObject({ revokedReason: "reuse", revokedAt: expect.any(Date) });
    const events = await prisma.activityEvent.findMany({ where: { userId, kind: "oauth_refresh_reused" } });
    expect(events).toEqual([
      expect.objectContaining({ subjectId: login.id, projectId: tokens.project_id, projectName: "Reuse", sender: CLIENT_ID, observedIp: "127.0.0.1", observedUserAgent: "acme-cli/1.0" }),
    ]);
    // Presenting it once more changes nothing further.
    const before = await databaseFingerprint();
    await expectInvalidGrant(await refresh(tokens.refresh_token));
    expect(await databaseFingerprint()).toEqual(before);
  });

  it("takes the token the latest refresh retired, presented within CONCURRENT_REFRESH_GRACE_MS, for a concurrent refresh that lost, and later for reuse", async () => {
    const { tokens } = await loggedIn();
    const start = Date.now();
    travelTo(start);
    const next = await tokensOf(await refresh(tokens.refresh_token));
    travelTo(start + CONCURRENT_REFRESH_GRACE_MS - 1000);
    const before = await databaseFingerprint();
    await expectInvalidGrant(await refresh(tokens.refresh_token));
    expect(await databaseFingerprint()).toEqual(before);
    travelTo(start + CONCURRENT_REFRESH_GRACE_MS);
    await expectInvalidGrant(await refresh(tokens.refresh_token));
    await expectInvalidGrant(await refresh(next.refresh_token));
  });

  // The grace is for the client that made the latest refresh only: another one's copy is reuse.
  it.each([
    ["another address", { "x-initlink-peer": "198.51.100.7" }],
    ["another User-Agent", { "user-agent": "curl/8.5.0" }],
  ])("takes the token the latest refresh retired, presented within the grace from %s, for reuse", async (_, headers) => {
    const { tokens, userId } = await loggedIn();
    const start = Date.now();
    travelTo(start);
    const next = await tokensOf(await refresh(tokens.refresh_token));
    travelTo(start + 3000);
    await expectInvalidGrant(await refresh(tokens.refresh_token, CLIENT_ID, headers));
    const prisma = await db();
    expect(await prisma.oAuthLogin.findFirstOrThrow({ where: { userId } })).toMatchObject({ revokedReason: "reuse" });
    await expectInvalidGrant(await refresh(next.refresh_token));
    expect(await linkStatus(tokens.project_id, next.access_token)).toBe(401);
  });

  it("takes the client's own token for reuse when a copy of it was refreshed from elsewhere 3 s before: the login, the other's tokens with it, is revoked and recorded", async () => {
    const { tokens, userId } = await loggedIn("Copied");
    const start = Date.now();
    travelTo(start);
    const copied = await tokensOf(await refresh(tokens.refresh_token, CLIENT_ID, ELSEWHERE));
    travelTo(start + 3000);
    await expectInvalidGrant(await refresh(tokens.refresh_token));
    const prisma = await db();
    const login = await prisma.oAuthLogin.findFirstOrThrow({ where: { userId } });
    expect(login).toMatchObject({ revokedReason: "reuse" });
    expect(await prisma.activityEvent.findMany({ where: { userId, kind: "oauth_refresh_reused" } })).toEqual([
      expect.objectContaining({ subjectId: login.id, projectName: "Copied", observedIp: "127.0.0.1", observedUserAgent: "acme-cli/1.0" }),
    ]);
    await expectInvalidGrant(await refresh(copied.refresh_token, CLIENT_ID, ELSEWHERE));
    expect(await linkStatus(tokens.project_id, copied.access_token)).toBe(401);
  });

  it("gives exactly one of 50 concurrent refreshes of one token a new pair, on one conditional update; the winner's login goes on", async () => {
    const { tokens, userId } = await loggedIn();
    const prisma = await db();
    const accessTokensBefore = await prisma.accessToken.count({ where: { userId } });
    const answers = await Promise.all(Array.from({ length: 50 }, () => refresh(tokens.refresh_token)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 400)).toHaveLength(49);
    for (const answer of answers.filter((candidate) => candidate.status === 400)) expect(await answer.json()).toMatchObject({ error: "invalid_grant" });
    // The losers' tokens were deleted unseen: one new access token and refresh token.
    expect(await prisma.accessToken.count({ where: { userId } })).toBe(accessTokensBefore + 1);
    expect(await prisma.refreshToken.count({ where: { login: { userId } } })).toBe(2);
    const winner = await tokensOf(answers.find((answer) => answer.status === 200) ?? answers[0]);
    expect(await linkStatus(tokens.project_id, winner.access_token)).toBe(200);
    expect((await refresh(winner.refresh_token)).status).toBe(200);
    expect(await prisma.activityEvent.count({ where: { userId, kind: "oauth_refresh_reused" } })).toBe(0);
  });

  it("of 50 concurrent refreshes of one token, 25 from each of two clients, gives one a new pair; the other client's reveal the reuse: the login is revoked once, the winner's tokens with it", async () => {
    const { tokens, userId } = await loggedIn();
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => refresh(tokens.refresh_token, CLIENT_ID, i % 2 === 0 ? {} : ELSEWHERE)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 400)).toHaveLength(49);
    for (const answer of answers.filter((candidate) => candidate.status === 400)) expect(await answer.json()).toMatchObject({ error: "invalid_grant" });
    const prisma = await db();
    expect(await prisma.oAuthLogin.findFirstOrThrow({ where: { userId } })).toMatchObject({ revokedReason: "reuse" });
    expect(await prisma.activityEvent.count({ where: { userId, kind: "oauth_refresh_reused" } })).toBe(1);
    const winner = await tokensOf(answers.find((answer) => answer.status === 200) ?? answers[0]);
    expect(await linkStatus(tokens.project_id, winner.access_token)).toBe(401);
    await expectInvalidGrant(await refresh(winner.refresh_token));
  });
});
