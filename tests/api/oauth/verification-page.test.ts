import { describe, expect, it } from "vitest";
import { db } from "@/lib/database/db";
import { USER_CODE_GUESSES_PER_ACCOUNT } from "@/lib/limits/rules";
import { rateLimitCounters } from "../../helpers/api";
import { PASSWORD } from "../../helpers/journey.mjs";
import { approve, cookieHeader, deny, newAccount, sessionTokenOf, signIn, SITE } from "../../helpers/forms";
import { dispatch } from "../../helpers/in-process";
import { deviceAuthorized } from "../../helpers/oauth";

// RFC 8628 §3.3: the verification page (/device, `verification_uri`) leads a signed-in person from
// the code their client shows to that request's approval page, where the code counts as typed for
// that browser session; wrong codes are limited per account and address (§5.1), and a matching
// one counts nothing.

const enter = (userCode: string, token: string | null, address = "127.0.0.1") =>
  dispatch("POST", "/device/enter", {
    body: new URLSearchParams({ user_code: userCode }).toString(),
    headers: { origin: SITE, "content-type": "application/x-www-form-urlencoded", "x-initlink-peer": address, ...(token === null ? {} : cookieHeader(token)) },
  });

/** The guesses counted against `address` (each test posts from an address of its own). */
const guessesFrom = async (address: string) => (await rateLimitCounters("user-code-address:")).filter((counter) => counter.key.endsWith(address));

const location = (response: Response) => new URL(response.headers.get("location") ?? "", SITE);

describe("the verification page's form (POST /device/enter)", () => {
  // The code never rides in the URL: a link's ?user_code= filled the page's input in, and one
  // click approved what a phisher had sent.
  it("takes the code as a person types it (any case, dashes or none) to the request's page, never in its URL, and counts nothing", async () => {
    const person = await newAccount();
    const device = await deviceAuthorized();
    const typed = device.user_code.replace("-", " ").toLowerCase();
    const answer = await enter(typed, person.token, "127.0.0.41");
    expect(answer.status).toBe(303);
    expect(location(answer).pathname).toBe(`/init/${device.initId}`);
    expect(location(answer).search).toBe("");
    expect((await guessesFrom("127.0.0.41")).reduce((sum, counter) => sum + counter.count, 0)).toBe(0);
  });

  it("sends a code no request waits for back with unknown_user_code, a decided request's code too, and counts each", async () => {
    const person = await newAccount();
    const wrong = await enter("BCDF-GHJK", person.token, "127.0.0.42");
    expect(location(wrong).pathname).toBe("/device");
    expect(location(wrong).searchParams.get("error")).toBe("unknown_user_code");
    const device = await deviceAuthorized();
    await deny(device.initId, person.token);
    expect(location(await enter(device.user_code, person.token, "127.0.0.42")).searchParams.get("error")).toBe("unknown_user_code");
    expect((await guessesFrom("127.0.0.42")).map((counter) => counter.count)).toEqual([2]);
  });

  it(`refuses an account's guesses past ${USER_CODE_GUESSES_PER_ACCOUNT} wrong codes, even a right one, with rate_limited`, async () => {
    const person = await newAccount();
    const answers = await Promise.all(Array.from({ length: USER_CODE_GUESSES_PER_ACCOUNT + 5 }, () => enter("ZZZZ-ZZZZ", person.token, "127.0.0.43")));
    const errors = answers.map((answer) => location(answer).searchParams.get("error"));
    expect(errors.filter((error) => error === "unknown_user_code")).toHaveLength(USER_CODE_GUESSES_PER_ACCOUNT);
    expect(errors.filter((error) => error === "rate_limited")).toHaveLength(5);
    const device = await deviceAuthorized();
    expect(location(await enter(device.user_code, person.token, "127.0.0.43")).searchParams.get("error")).toBe("rate_limited");
  });

  it("asks a signed-out visitor to sign in, and writes nothing", async () => {
    const device = await deviceAuthorized();
    const prisma = await db();
    const before = await prisma.init.findUniqueOrThrow({ where: { id: device.initId } });
    const answer = await enter(device.user_code, null, "127.0.0.44");
    expect(location(answer).searchParams.get("error")).toBe("unauthorized");
    expect(await prisma.init.findUniqueOrThrow({ where: { id: device.initId } })).toEqual(before);
    expect(await guessesFrom("127.0.0.44")).toEqual([]);
  });
});

const errorOf = (response: Response) => location(response).searchParams.get("error");

async function initRow(id: string) {
  const prisma = await db();
  return prisma.init.findUniqueOrThrow({ where: { id }, select: { status: true, codeAttempts: true, wrongCodes: true, codeEnteredSessionId: true } });
}

describe("the code typed at /device, on the request's page", () => {
  it("counts as typed for the browser session that typed it, and for no other, even of the same account", async () => {
    const person = await newAccount();
    const otherSession = sessionTokenOf(await signIn({ email: person.email, password: PASSWORD }));
    expect(otherSession).not.toBeNull();
    const device = await deviceAuthorized();
    expect(location(await enter(device.user_code, person.token, "127.0.0.45")).pathname).toBe(`/init/${device.initId}`);
    // Another session, no code typed: refused, and no code counted (none was guessed).
    expect(errorOf(await approve(device.initId, otherSession!, { project: "new", name: "Elsewhere" }))).toBe("code_mismatch");
    expect(await initRow(device.initId)).toMatchObject({ status: "pending", codeAttempts: 0, wrongCodes: 0 });
    expect(errorOf(await approve(device.initId, person.token, { project: "new", name: "Typed at /device" }))).toBeNull();
    expect(await initRow(device.initId)).toMatchObject({ status: "done", codeAttempts: 0, wrongCodes: 0, codeEnteredSessionId: null });
  });

  it("is kept by a refused approval, which writes nothing, and used up by the approval", async () => {
    const person = await newAccount();
    const device = await deviceAuthorized();
    await enter(device.user_code, person.token, "127.0.0.46");
    const entered = await initRow(device.initId);
    expect(entered.codeEnteredSessionId).not.toBeNull();
    expect(errorOf(await approve(device.initId, person.token, { project: "AAAAAAAAAAAAAAAAAAAAAA" }))).toBe("not_found");
    expect(await initRow(device.initId)).toEqual(entered);
    expect(errorOf(await approve(device.initId, person.token, { project: "new", name: "Once" }))).toBeNull();
    expect(await initRow(device.initId)).toMatchObject({ status: "done", codeEnteredSessionId: null });
  });

  it("approves once of 50 concurrent approvals counting on it, none counted as a wrong code", async () => {
    const person = await newAccount();
    // Into an existing project: a new one per approval would meet the hour's new-project limit.
    const first = await deviceAuthorized();
    await enter(first.user_code, person.token, "127.0.0.47");
    expect(errorOf(await approve(first.initId, person.token, { project: "new", name: "Raced into" }))).toBeNull();
    const device = await deviceAuthorized();
    await enter(device.user_code, person.token, "127.0.0.47");
    const answers = await Promise.all(Array.from({ length: 50 }, () => approve(device.initId, person.token, { project: first.initId })));
    const errors = answers.map(errorOf);
    expect(errors.filter((error) => error === null)).toHaveLength(1);
    expect(errors.filter((error) => error !== null).every((error) => error === "init_not_pending")).toBe(true);
    expect(await initRow(device.initId)).toMatchObject({ status: "done", codeAttempts: 0, wrongCodes: 0 });
  });
});
