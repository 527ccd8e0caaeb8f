import { afterEach, describe, expect, it, vi } from "vitest";
import { listSessions } from "@/lib/auth/account-sessions";
import { SESSION_SEEN_EVERY_MS, sessionUser } from "@/lib/auth/sessions";
import { db } from "@/lib/database/db";
import { hashSecret } from "@/lib/secrets";
import { PEER_ADDRESS_HEADER } from "@/server/request-context.mjs";
import { newAccount, sessionTokenOf, signIn, signOutOthersForm, signOutSessionForm } from "../../helpers/forms";
import { PASSWORD } from "../../helpers/journey.mjs";

// /settings/sessions: the account's sessions with device, address and last
// seen; one signed out, or all others at once; never another account's.

const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";

afterEach(() => {
  vi.useRealTimers();
});

async function sessionIdOf(token: string): Promise<string> {
  const prisma = await db();
  return (await prisma.session.findUniqueOrThrow({ where: { tokenHash: hashSecret(token) }, select: { id: true } })).id;
}

/** An account signed in twice: `token` (the browser at hand) and `other`, from another address and browser. */
async function twoSessions() {
  const { email, token } = await newAccount();
  const other = sessionTokenOf(await signIn({ email, password: PASSWORD }, "", { "user-agent": FIREFOX, [PEER_ADDRESS_HEADER]: "203.0.113.7" }))!;
  const user = (await sessionUser(token))!;
  return { email, token, other, userId: user.id, sessionId: user.sessionId, otherId: await sessionIdOf(other) };
}

const sessionCount = async (userId: string) => (await db()).session.count({ where: { userId } });

describe("the account's sessions", () => {
  it("lists each session with its browser, address and last seen, this browser's first", async () => {
    const { userId, sessionId, otherId } = await twoSessions();
    const sessions = await listSessions(userId, sessionId);
    expect(sessions.map((session) => [session.id, session.current])).toEqual([
      [sessionId, true],
      [otherId, false],
    ]);
    expect(sessions[1]).toMatchObject({ userAgent: FIREFOX, address: "203.0.113.7", lastSeenAt: expect.any(Date) });
  });

  it("marks a session seen at most once every few minutes, from where it was seen", async () => {
    const { token, sessionId } = await twoSessions();
    const prisma = await db();
    const seenAt = async () => (await prisma.session.findUniqueOrThrow({ where: { id: sessionId } })).lastSeenAt?.getTime();
    const first = await seenAt();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(first! + SESSION_SEEN_EVERY_MS - 1000);
    await sessionUser(token, { address: "198.51.100.1", userAgent: "x" });
    expect(await seenAt()).toBe(first);
    vi.setSystemTime(first! + SESSION_SEEN_EVERY_MS + 1000);
    // Concurrent requests write it once; each sees the same person.
    const seen = await Promise.all(Array.from({ length: 20 }, () => sessionUser(token, { address: "198.51.100.1", userAgent: FIREFOX })));
    expect(new Set(seen.map((user) => user?.sessionId))).toEqual(new Set([sessionId]));
    expect(await prisma.session.findUniqueOrThrow({ where: { id: sessionId } })).toMatchObject({ lastSeenAt: new Date(first! + SESSION_SEEN_EVERY_MS + 1000), address: "198.51.100.1", userAgent: FIREFOX });
  });

  it("signs one session out; the browser holding it is signed out at once", async () => {
    const { token, other, userId, otherId } = await twoSessions();
    const response = await signOutSessionForm(token, otherId);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("https://initlink.test/settings/sessions?signedOut=1");
    expect(await sessionUser(other)).toBeNull();
    expect(await sessionUser(token)).not.toBeNull();
    expect(await sessionCount(userId)).toBe(1);
  });

  it("signing out this browser's own session from the list signs it out", async () => {
    const { token, sessionId } = await twoSessions();
    const response = await signOutSessionForm(token, sessionId);
    expect(response.headers.get("location")).toBe("https://initlink.test/");
    expect(response.headers.get("set-cookie")).toContain("Max-Age=0");
    expect(await sessionUser(token)).toBeNull();
  });

  it.each([
    ["another account's session", async (mine: Awaited<ReturnType<typeof twoSessions>>, theirs: Awaited<ReturnType<typeof twoSessions>>) => signOutSessionForm(mine.token, theirs.otherId), "not_found"],
    ["an id that is no session's", async (mine: Awaited<ReturnType<typeof twoSessions>>) => signOutSessionForm(mine.token, "AAAAAAAAAAAAAAAAAAAAAA"), "not_found"],
    ["a malformed id", async (mine: Awaited<ReturnType<typeof twoSessions>>) => signOutSessionForm(mine.token, "../x"), "not_found"],
    ["from another site", async (mine: Awaited<ReturnType<typeof twoSessions>>) => signOutSessionForm(mine.token, mine.otherId, { origin: "https://evil.example" }), "cross_site_request"],
    ["signed out", async (mine: Awaited<ReturnType<typeof twoSessions>>) => signOutSessionForm("no-such-session", mine.otherId), "unauthorized"],
  ])("refuses to sign out %s, ending nothing", async (_case, send, code) => {
    const mine = await twoSessions();
    const theirs = await twoSessions();
    const response = await send(mine, theirs);
    expect(response.status).toBe(303);
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe(code);
    expect([await sessionCount(mine.userId), await sessionCount(theirs.userId)]).toEqual([2, 2]);
  });

  it("signs out every other session at once, and this browser's cookie with any copy of it, giving the browser a new session; other accounts' stay", async () => {
    const { email, token, userId, sessionId } = await twoSessions();
    await signIn({ email, password: PASSWORD });
    const stranger = await twoSessions();
    const prisma = await db();
    const before = await prisma.session.findUniqueOrThrow({ where: { id: sessionId } });
    const response = await signOutOthersForm(token, { "user-agent": FIREFOX, [PEER_ADDRESS_HEADER]: "198.51.100.9" });
    expect(response.headers.get("location")).toBe("https://initlink.test/settings/sessions?signedOut=2");
    const renewed = sessionTokenOf(response);
    expect(await sessionUser(token)).toBeNull();
    const user = await sessionUser(renewed ?? undefined);
    expect(user?.id).toBe(userId);
    expect(await listSessions(userId, user!.sessionId)).toEqual([
      expect.objectContaining({ id: user!.sessionId, current: true, createdAt: before.createdAt, address: "198.51.100.9", userAgent: FIREFOX }),
    ]);
    expect(await sessionCount(stranger.userId)).toBe(2);
  });

  it("gives one of 50 concurrent sign-outs of the others with one session the new session; the rest are signed out", async () => {
    const { token, userId } = await twoSessions();
    const answers = await Promise.all(Array.from({ length: 50 }, () => signOutOthersForm(token)));
    const renewed = answers.map(sessionTokenOf).filter((value) => value !== null);
    expect(renewed).toHaveLength(1);
    expect(answers.filter((response) => new URL(response.headers.get("location")!).searchParams.get("error") === "unauthorized")).toHaveLength(49);
    const prisma = await db();
    expect(await prisma.session.findMany({ where: { userId } })).toEqual([expect.objectContaining({ tokenHash: hashSecret(renewed[0]) })]);
  });

  it("refuses to sign out others from another site", async () => {
    const { token, userId } = await twoSessions();
    const response = await signOutOthersForm(token, { origin: "https://evil.example" });
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe("cross_site_request");
    expect(await sessionCount(userId)).toBe(2);
  });
});
