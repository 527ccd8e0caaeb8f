import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/database/db";
import { hashSecret } from "@/lib/secrets";
import { issueProjectAccessToken } from "@/lib/access-tokens/issue-access-token";
import { createdInit, getInitStatus, rateLimitCounter } from "../../helpers/api";
import { approve, newAccount, signIn, signUp } from "../../helpers/forms";
import { heldPickupsEndedAtOnce } from "../../helpers/held-pickups";
import { approvedClient, createLink, randomIv, withToken } from "../../helpers/links";
import { basicAuthorization, postIntrospection, resourceServer } from "../../helpers/oauth";
import { startInFreshWindow } from "../../helpers/clock";

// Every limit holds under concurrency. Each takes its unit in one conditional
// statement before the work, so with a limit of 3, of 50 concurrent requests exactly 3 are
// served (or evaluated), on SQLite and PostgreSQL alike; a request the rules do not count gives
// its unit back. Password checks run 50 at once here, so that only the failure limit decides
// (tests/api/auth/sign-ins-at-once.test.ts limits them).
vi.hoisted(() => {
  Object.assign(process.env, {
    SIGN_IN_PER_ADDRESS_PER_MINUTE: "1000",
    SIGN_IN_FAILURES_PER_15_MINUTES: "3",
    SIGN_INS_AT_ONCE_PER_ACCOUNT: "50",
    LINKS_PER_TOKEN_PER_MINUTE: "3",
    PICKUPS_PER_INIT_PER_MINUTE: "3",
    INTROSPECTIONS_PER_RESOURCE_SERVER_PER_MINUTE: "3",
  });
});

const CONCURRENT = 50;
const REFUSED = CONCURRENT - 3;
const PASSWORD = "correct horse battery";
const from = (address: string) => ({ "x-initlink-peer": address });
const errorOf = (response: Response) => new URL(response.headers.get("location") ?? "", "https://initlink.test").searchParams.get("error");
const statuses = (answers: Response[]) => answers.map((answer) => answer.status).sort((a, b) => a - b);
const counter = async (key: string) => (await rateLimitCounter(key))?.count ?? 0;

// Windows are fixed minutes: each test starts at the beginning of one, so no count resets halfway.
beforeEach(() => startInFreshWindow(60_000));

const controllers: AbortController[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const controller of controllers.splice(0)) controller.abort();
});

/** The id of the access token `token`: the subject of its link limit. */
const tokenId = async (token: string) => (await (await db()).accessToken.findUniqueOrThrow({ where: { tokenHash: hashSecret(token) }, select: { id: true } })).id;

describe("Create Project Link per access token (LINKS_PER_TOKEN_PER_MINUTE=3)", () => {
  it(`serves exactly 3 of ${CONCURRENT} concurrent requests with different ivs; ${REFUSED} get 429`, async () => {
    const client = await approvedClient();
    const answers = await Promise.all(Array.from({ length: CONCURRENT }, () => createLink(client.projectId, randomIv(), withToken(client.accessToken))));
    expect(statuses(answers)).toEqual([...Array(3).fill(200), ...Array(REFUSED).fill(429)]);
    expect(await (await db()).projectLink.count({ where: { projectId: client.projectId } })).toBe(3);
    expect(await counter(`links-token:${await tokenId(client.accessToken)}`)).toBe(3);
  });

  it("counts only links made or reused: a request that loses an iv to another token (409) gives its unit back", async () => {
    const client = await approvedClient();
    const other = await issueProjectAccessToken(client.userId, client.projectId, "other client", new Date(Date.now() + 86_400_000), null);
    const tokens = [client.accessToken, other.token];
    // Two tokens race for the same new iv, three times: one gets the link, the other 409.
    const answers = [];
    for (let round = 0; round < 3; round++) {
      const iv = randomIv();
      answers.push(...(await Promise.all(tokens.map(async (token) => ({ token, status: (await createLink(client.projectId, iv, withToken(token))).status })))));
    }
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(3);
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(3);
    for (const token of tokens) {
      expect(await counter(`links-token:${await tokenId(token)}`)).toBe(answers.filter((answer) => answer.token === token && answer.status === 200).length);
    }
  });
});

describe("token introspections per resource-server credential (INTROSPECTIONS_PER_RESOURCE_SERVER_PER_MINUTE=3)", () => {
  it(`answers exactly 3 of ${CONCURRENT} concurrent introspections; ${REFUSED} get 429`, async () => {
    const client = await approvedClient();
    const platform = await resourceServer(client.userId, [client.projectId]);
    const answers = await Promise.all(Array.from({ length: CONCURRENT }, () => postIntrospection({ token: client.accessToken }, { authorization: basicAuthorization(platform) })));
    expect(statuses(answers)).toEqual([...Array(3).fill(200), ...Array(REFUSED).fill(429)]);
    expect(await counter(`introspections-resource-server:${platform.clientId}`)).toBe(3);
  });
});

describe("token pickups per init (PICKUPS_PER_INIT_PER_MINUTE=3)", () => {
  it(`answers exactly 3 of ${CONCURRENT} held pickups that the approval ends at once; ${REFUSED} get 429`, async () => {
    const { token } = await newAccount();
    const init = await createdInit();
    const controller = new AbortController();
    controllers.push(controller);
    const decide = () => approve(init.id, token, { project: "new", name: "Picked", code_confirmed: "yes" });
    const answers = await heldPickupsEndedAtOnce(init, CONCURRENT, decide, controller.signal);
    expect(statuses(answers)).toEqual([...Array(3).fill(200), ...Array(REFUSED).fill(429)]);
    const bodies = await Promise.all(answers.map((answer) => answer.json()));
    expect(bodies.filter((body) => body.code === "rate_limited")).toHaveLength(REFUSED);
    expect(bodies.filter((body) => typeof body.access_token === "string")).toHaveLength(1);
    expect(await counter(`pickups-init:${init.id}`)).toBe(3);
  });

  it("gives the unit of a pickup refused with slow_down back", async () => {
    const { token } = await newAccount();
    const init = await createdInit();
    await approve(init.id, token, { project: "new", name: "Picked", code_confirmed: "yes" });
    const secret = { authorization: `Bearer ${init.secret}` };
    expect((await getInitStatus(init.id, secret)).status).toBe(200);
    // More too-fast pickups than the limit: each is refused by the clock and gives its unit back.
    for (let attempt = 0; attempt < 5; attempt++) expect((await (await getInitStatus(init.id, secret)).json()).code).toBe("slow_down");
    expect(await counter(`pickups-init:${init.id}`)).toBe(1);
  });

  it("restores the counter of an ended window that a pickup refused with slow_down replaced", async () => {
    const { token } = await newAccount();
    const init = await createdInit();
    await approve(init.id, token, { project: "new", name: "Picked", code_confirmed: "yes" });
    const secret = { authorization: `Bearer ${init.secret}` };
    vi.useFakeTimers({ toFake: ["Date"] });
    const nextMinute = Math.ceil(Date.now() / 60_000) * 60_000;
    vi.setSystemTime(nextMinute - 1000);
    expect((await getInitStatus(init.id, secret)).status).toBe(200);
    const before = await rateLimitCounter(`pickups-init:${init.id}`);
    expect(before).not.toBeNull();
    vi.setSystemTime(nextMinute + 500);
    expect((await (await getInitStatus(init.id, secret)).json()).code).toBe("slow_down");
    expect(await rateLimitCounter(`pickups-init:${init.id}`)).toEqual(before);
  });
});

describe("failed sign-ins per account and address (SIGN_IN_FAILURES_PER_15_MINUTES=3)", () => {
  it(`checks exactly 3 of ${CONCURRENT} concurrent wrong passwords from one address; ${REFUSED} are refused unchecked`, async () => {
    const email = `guessed-${randomIv()}@example.com`;
    expect(errorOf(await signUp({ email, password: PASSWORD }, "", from("192.0.2.40")))).toBeNull();
    const answers = await Promise.all(Array.from({ length: CONCURRENT }, () => signIn({ email, password: "wrong password!" }, "", from("192.0.2.41"))));
    const errors = answers.map(errorOf);
    expect(errors.filter((error) => error === "invalid_credentials")).toHaveLength(3);
    expect(errors.filter((error) => error === "rate_limited")).toHaveLength(REFUSED);
    expect(await counter(`sign-in-failures-account-address:${email} 192.0.2.41`)).toBe(3);
    expect(await counter(`sign-in-failures-account:${email}`)).toBe(3);
  });

  it("counts only wrong passwords: a right one gives its unit back", async () => {
    const email = `owner-${randomIv()}@example.com`;
    expect(errorOf(await signUp({ email, password: PASSWORD }, "", from("192.0.2.42")))).toBeNull();
    const attempt = (password: string) => signIn({ email, password }, "", from("192.0.2.43")).then(errorOf);
    for (let i = 0; i < 2; i++) expect(await attempt("wrong password!")).toBe("invalid_credentials");
    for (let i = 0; i < 5; i++) expect(await attempt(PASSWORD)).toBeNull();
    expect(await counter(`sign-in-failures-account-address:${email} 192.0.2.43`)).toBe(2);
    expect(await attempt("wrong password!")).toBe("invalid_credentials");
    expect(await attempt("wrong password!")).toBe("rate_limited");
  });
});
