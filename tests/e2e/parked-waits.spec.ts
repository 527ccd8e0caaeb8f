import { request as httpRequest } from "node:http";
import { expect, test } from "@playwright/test";
import { MAIN_URL, SHORT_URL } from "../../playwright.config";
import { approvedIntoNewProject, createInit, signUp, type Answer, type CreatedInit, type Send } from "../helpers/journey.mjs";
import { newEmail } from "./flow";

// Status requests with `Prefer: wait` are parked by the production server's edge between passes
// through Next.js (server/parking.mjs): whatever ends the wait, the route answers it as it
// answers a poll. SHORT_URL's inits live 10 s and are polled every 500 ms, so that a poll made
// after the wait shows the answer a poll gets. Requests go over node:http from loopback
// addresses of their own, so that the inits these tests create count against no other spec's
// Create Init limit.

/** The journey's transport to `base` from `localAddress`; `signal` lets a request go mid-wait. */
function from(base: string, localAddress: string, signal?: AbortSignal): Send {
  const { port } = new URL(base);
  return (method, path, body, headers = {}) =>
    new Promise<Answer>((resolve, reject) => {
      const request = httpRequest({ host: "127.0.0.1", port, localAddress, method, path, headers, signal }, (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => (text += chunk.toString()));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers as Record<string, string>, text }));
      });
      request.on("error", reject);
      request.end(body);
    });
}

const form = (site: string, cookie: string) => ({ "content-type": "application/x-www-form-urlencoded", origin: site, cookie });
const held = (send: Send, init: CreatedInit, wait: number, headers: Record<string, string> = {}) =>
  send("GET", `/api/init/${init.id}`, undefined, { prefer: `wait=${wait}`, ...headers });
const withoutClock = (text: string) => {
  const { timestamp: _timestamp, ...rest } = JSON.parse(text) as Record<string, unknown>;
  return rest;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("a parked wait ends on approval with the token pickup, and on denial with the answer a poll gets", async () => {
  const send = from(SHORT_URL, "127.0.20.1");
  const person = await signUp(send, { site: SHORT_URL, email: newEmail() });
  const [approved, denied] = await Promise.all([createInit(send), createInit(send)]);
  const started = Date.now();
  const approvedAnswer = held(send, approved, 30, { authorization: `Bearer ${approved.secret}` });
  const deniedAnswer = held(send, denied, 30);
  await sleep(300);
  expect(await approvedIntoNewProject(send, SHORT_URL, person.cookie, approved.id, "Parked")).toBe(true);
  expect((await send("POST", `/init/${denied.id}/deny`, "", form(SHORT_URL, person.cookie))).status).toBe(303);
  const [approvedHeld, deniedHeld] = await Promise.all([approvedAnswer, deniedAnswer]);
  expect(Date.now() - started).toBeLessThan(8000);
  expect(approvedHeld.status).toBe(200);
  expect(approvedHeld.headers["preference-applied"]).toBe("wait=30");
  expect(approvedHeld.headers["x-initlink-park"]).toBeUndefined();
  expect(JSON.parse(approvedHeld.text)).toMatchObject({ status: "done", project_id: approved.id, access_token: expect.stringMatching(/^ilat_/) });
  expect(deniedHeld.status).toBe(200);
  // A poll after the interval: the same answer, and the token was picked up once only.
  await sleep(600);
  const [approvedPoll, deniedPoll] = await Promise.all([
    send("GET", `/api/init/${approved.id}`, undefined, { authorization: `Bearer ${approved.secret}` }),
    send("GET", `/api/init/${denied.id}`),
  ]);
  expect(withoutClock(deniedHeld.text)).toEqual(withoutClock(deniedPoll.text));
  expect(withoutClock(deniedHeld.text)).toMatchObject({ status: "denied", error: expect.any(String) });
  expect(JSON.parse(approvedPoll.text)).toMatchObject({ status: "done", project_id: approved.id });
  expect(JSON.parse(approvedPoll.text).access_token).toBeUndefined();
});

test("a parked wait ends at its own timeout and at the init's expiry, each as a poll answers then", async () => {
  const send = from(SHORT_URL, "127.0.20.2");
  const init = await createInit(send);
  const started = Date.now();
  const timedOut = await held(send, init, 1);
  expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  expect(timedOut.headers["preference-applied"]).toBe("wait=1");
  expect(JSON.parse(timedOut.text)).toMatchObject({ id: init.id, status: "pending" });
  await sleep(500);
  // The init lives 10 s: a 60 s wait ends at its expiry.
  const expired = await held(send, init, 60);
  expect(Date.now()).toBeGreaterThanOrEqual(init.expires_at);
  expect(Date.now() - init.expires_at).toBeLessThan(3000);
  await sleep(600);
  const poll = await send("GET", `/api/init/${init.id}`);
  expect(withoutClock(expired.text)).toEqual(withoutClock(poll.text));
  expect(withoutClock(expired.text)).toMatchObject({ status: "expired" });
});

// MAIN_URL's interval is 5 s: the forged requests all come well inside it.
test("a client cannot forge the edge's mark: a forged resumption is a new poll, and slow_down holds", async () => {
  const send = from(MAIN_URL, "127.0.20.3");
  const [init, other] = await Promise.all([createInit(send), createInit(send)]);
  expect((await send("GET", `/api/init/${init.id}`)).status).toBe(200);
  // A resumed wait skips the poll clock: forged, the mark is stripped, and the poll is too fast.
  for (const mark of ["AAAAAAAAAAAAAAAAAAAAAAAA 1 changed", "x 1", "1 deadline"]) {
    const forged = await held(send, init, 5, { "x-initlink-parking": mark });
    expect(forged.status).toBe(429);
    expect(JSON.parse(forged.text)).toMatchObject({ code: "slow_down" });
  }
  // A response mark from a client means nothing either: the wait is held as any other.
  const started = Date.now();
  const answer = await held(send, other, 1, { "x-initlink-park": "park" });
  expect(answer.status).toBe(200);
  expect(Date.now() - started).toBeGreaterThanOrEqual(900);
});

// 1,000 inits over four addresses (the Create Init limit counts per address).
test("1,000 parked waits are answered correctly: approved, denied, and timed out", async () => {
  test.setTimeout(120_000);
  const senders = [1, 2, 3, 4].map((n) => from(MAIN_URL, `127.0.21.${n}`));
  const person = await signUp(senders[0], { site: MAIN_URL, email: newEmail() });
  const inits: CreatedInit[] = [];
  for (let batch = 0; batch < 50; batch++) inits.push(...(await Promise.all(Array.from({ length: 20 }, (_, i) => createInit(senders[(batch * 20 + i) % 4])))));
  // One in ten is approved and one in ten denied while they wait; the others time out after 3 s.
  const fate = (index: number) => (index % 10 === 0 ? "done" : index % 10 === 1 ? "denied" : "pending");
  const answers = inits.map((init, index) => held(senders[index % 4], init, fate(index) === "pending" ? 3 : 60, { authorization: `Bearer ${init.secret}` }));
  await sleep(1000);
  const [first, ...rest] = inits.filter((_, index) => fate(index) === "done");
  expect(await approvedIntoNewProject(senders[0], MAIN_URL, person.cookie, first.id, "Thousand")).toBe(true);
  const decide = (init: CreatedInit) =>
    fate(inits.indexOf(init)) === "done"
      ? senders[0]("POST", `/init/${init.id}/approve`, new URLSearchParams({ project: first.id, code_confirmed: "yes" }).toString(), form(MAIN_URL, person.cookie))
      : senders[0]("POST", `/init/${init.id}/deny`, "", form(MAIN_URL, person.cookie));
  const toDecide = [...rest, ...inits.filter((_, index) => fate(index) === "denied")];
  for (let start = 0; start < toDecide.length; start += 20) {
    const decisions = await Promise.all(toDecide.slice(start, start + 20).map(decide));
    expect(decisions.every((decision) => decision.status === 303 && !decision.headers.location.includes("error="))).toBe(true);
  }
  const results = await Promise.all(answers);
  const expected = inits.map((_, index) => fate(index));
  expect(results.map((result) => JSON.parse(result.text).status)).toEqual(expected);
  expect(results.every((result, index) => result.headers["preference-applied"] === (fate(index) === "pending" ? "wait=3" : "wait=60"))).toBe(true);
  expect(results.filter((result) => typeof JSON.parse(result.text).access_token === "string")).toHaveLength(expected.filter((status) => status === "done").length);
});
