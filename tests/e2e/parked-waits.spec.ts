import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { expect, test } from "@playwright/test";
import { MAIN_URL, SHORT_URL } from "../../playwright.config";
import { MAX_STREAMS_PER_INIT } from "../../lib/limits/rules";
import { parseMetrics, sampleValue } from "../helpers/metrics-text.mjs";
import { approvedIntoNewProject, createInit, signUp, type Answer, type CreatedInit, type Person, type Send } from "../helpers/journey.mjs";
import { newEmail } from "./flow";

// Status requests with `Prefer: wait`, and event streams, are parked by the production server's
// edge between passes through Next.js (server/parking.mjs): whatever ends the wait, the route
// answers it as it answers a poll, and each event of a stream is the status answer the route
// produces. SHORT_URL's inits live 10 s and are polled every 500 ms, so that a poll made after
// the wait shows the answer a poll gets. Requests go over node:http from loopback addresses of
// their own, so that the inits these tests create count against no other spec's Create Init limit.

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

/** `count` inits made over `senders` (the Create Init limit counts per address), 20 at a time. */
async function manyInits(senders: Send[], count: number): Promise<CreatedInit[]> {
  const inits: CreatedInit[] = [];
  while (inits.length < count) inits.push(...(await Promise.all(Array.from({ length: Math.min(20, count - inits.length) }, (_, i) => createInit(senders[(inits.length + i) % senders.length])))));
  return inits;
}

/** `person` approves `approved` (the first into a new project, the others into it) and denies `denied`, 20 at a time. */
async function decide(send: Send, person: Person, approved: CreatedInit[], denied: CreatedInit[]) {
  const [first, ...rest] = approved;
  expect(await approvedIntoNewProject(send, MAIN_URL, person.cookie, first.id, "Many")).toBe(true);
  const decision = (init: CreatedInit) =>
    rest.includes(init)
      ? send("POST", `/init/${init.id}/approve`, new URLSearchParams({ project: first.id, code_confirmed: "yes" }).toString(), form(MAIN_URL, person.cookie))
      : send("POST", `/init/${init.id}/deny`, "", form(MAIN_URL, person.cookie));
  const toDecide = [...rest, ...denied];
  for (let start = 0; start < toDecide.length; start += 20) {
    const decisions = await Promise.all(toDecide.slice(start, start + 20).map(decision));
    expect(decisions.every((answer) => answer.status === 303 && !answer.headers.location.includes("error="))).toBe(true);
  }
}

// 1,000 inits over four addresses (the Create Init limit counts per address).
test("1,000 parked waits are answered correctly: approved, denied, and timed out", async () => {
  test.setTimeout(120_000);
  const senders = [1, 2, 3, 4].map((n) => from(MAIN_URL, `127.0.21.${n}`));
  const person = await signUp(senders[0], { site: MAIN_URL, email: newEmail() });
  const inits = await manyInits(senders, 1000);
  // One in ten is approved and one in ten denied while they wait; the others time out after 3 s.
  const fate = (index: number) => (index % 10 === 0 ? "done" : index % 10 === 1 ? "denied" : "pending");
  const answers = inits.map((init, index) => held(senders[index % 4], init, fate(index) === "pending" ? 3 : 60, { authorization: `Bearer ${init.secret}` }));
  await sleep(1000);
  await decide(
    senders[0],
    person,
    inits.filter((_, index) => fate(index) === "done"),
    inits.filter((_, index) => fate(index) === "denied"),
  );
  const results = await Promise.all(answers);
  const expected = inits.map((_, index) => fate(index));
  expect(results.map((result) => JSON.parse(result.text).status)).toEqual(expected);
  expect(results.every((result, index) => result.headers["preference-applied"] === (fate(index) === "pending" ? "wait=3" : "wait=60"))).toBe(true);
  expect(results.filter((result) => typeof JSON.parse(result.text).access_token === "string")).toHaveLength(expected.filter((status) => status === "done").length);
});

type Stream = {
  status: number;
  headers: IncomingHttpHeaders;
  /** The whole body once the server ended the stream; rejects if the connection was cut instead. */
  ended: Promise<string>;
  /** Resolves once the body so far matches `pattern`. */
  until: (pattern: RegExp) => Promise<void>;
  /** The client goes away. */
  close: () => void;
};

/** Opens the init's event stream on a connection of its own from `localAddress` (resolves with its head). */
function openStream(base: string, localAddress: string, id: string, headers: Record<string, string> = {}): Promise<Stream> {
  const { port } = new URL(base);
  const controller = new AbortController();
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: "127.0.0.1", port, localAddress, path: `/api/init/${id}/events`, headers, agent: false, signal: controller.signal }, (response) => {
      let text = "";
      const watchers = new Set<() => void>();
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        text += chunk;
        for (const watcher of [...watchers]) watcher();
      });
      const ended = new Promise<string>((resolveEnd, rejectEnd) => {
        response.on("end", () => resolveEnd(text));
        response.on("error", rejectEnd);
      });
      ended.catch(() => undefined);
      const until = (pattern: RegExp) =>
        new Promise<void>((resolveMatch) => {
          const watcher = () => {
            if (!pattern.test(text)) return;
            watchers.delete(watcher);
            resolveMatch();
          };
          watchers.add(watcher);
          watcher();
        });
      resolve({ status: response.statusCode ?? 0, headers: response.headers, ended, until, close: () => controller.abort() });
    });
    request.on("error", reject);
    request.end();
  });
}

/** The events of a stream's body, in order, and the body as today's stream frames them. */
function eventsOf(text: string) {
  const events = [...text.matchAll(/id: (\w+)\ndata: (.*)\n\n/g)].map(([, id, data]) => ({ id, data: JSON.parse(data) as Record<string, unknown> }));
  return { events, framed: (retryMs: number) => `retry: ${retryMs}\n\n${events.map(({ id, data }) => `id: ${id}\ndata: ${JSON.stringify(data)}\n\n`).join("")}` };
}

test("a parked event stream gets its events on approval, denial and expiry, each with the data a poll gets", async () => {
  const send = from(SHORT_URL, "127.0.22.1");
  const person = await signUp(send, { site: SHORT_URL, email: newEmail() });
  const inits = await Promise.all([createInit(send), createInit(send), createInit(send)]);
  const [approved, denied] = inits;
  const firstPolls = await Promise.all(inits.map((init) => send("GET", `/api/init/${init.id}`)));
  const streams = await Promise.all(inits.map((init) => openStream(SHORT_URL, "127.0.22.1", init.id)));
  for (const stream of streams) {
    expect(stream.status).toBe(200);
    expect(stream.headers).toMatchObject({ "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store, no-transform", "x-accel-buffering": "no" });
    expect(stream.headers["x-initlink-park"]).toBeUndefined();
  }
  await Promise.all(streams.map((stream) => stream.until(/id: pending/)));
  expect(await approvedIntoNewProject(send, SHORT_URL, person.cookie, approved.id, "Streamed")).toBe(true);
  expect((await send("POST", `/init/${denied.id}/deny`, "", form(SHORT_URL, person.cookie))).status).toBe(303);
  // The third ends at its init's expiry (10 s), without a heartbeat (15 s).
  const texts = await Promise.all(streams.map((stream) => stream.ended));
  const lastPolls = await Promise.all(inits.map((init) => send("GET", `/api/init/${init.id}`)));
  texts.forEach((text, index) => {
    const { events, framed } = eventsOf(text);
    expect(text).toBe(framed(500));
    expect(events.map((event) => event.id)).toEqual(["pending", ["done", "denied", "expired"][index]]);
    expect(withoutClock(JSON.stringify(events[0].data))).toEqual(withoutClock(firstPolls[index].text));
    expect(withoutClock(JSON.stringify(events[1].data))).toEqual(withoutClock(lastPolls[index].text));
  });
});

// Each process follows an init with at most MAX_STREAMS_PER_INIT streams: twice that many open
// streams are held by both workers, and one decision, made on either, reaches them all.
test("a decision reaches the streams parked on every worker", async () => {
  const send = from(MAIN_URL, "127.0.22.2");
  const person = await signUp(send, { site: MAIN_URL, email: newEmail() });
  const init = await createInit(send);
  const open: Stream[] = [];
  // Those refused by a worker that holds its share already are opened again, on new connections.
  // The primary hands a connection to a worker that has taken the last one it was handed
  // (node:cluster's round robin); a worker busy with the other specs' pages takes none for a
  // while, and a refusal by the other comes back in milliseconds: so rounds go on for a time,
  // not a count (in a CI run, 89 in a row reached the full worker).
  const deadline = Date.now() + 30_000;
  while (open.length < 2 * MAX_STREAMS_PER_INIT && Date.now() < deadline) {
    const opened = await Promise.all(Array.from({ length: 2 * MAX_STREAMS_PER_INIT - open.length }, () => openStream(MAIN_URL, "127.0.22.2", init.id)));
    open.push(...opened.filter((stream) => stream.status === 200));
    expect(opened.every((stream) => stream.status === 200 || stream.status === 429)).toBe(true);
  }
  expect(open).toHaveLength(2 * MAX_STREAMS_PER_INIT);
  await Promise.all(open.map((stream) => stream.until(/id: pending/)));
  expect((await send("POST", `/init/${init.id}/deny`, "", form(MAIN_URL, person.cookie))).status).toBe(303);
  const texts = await Promise.all(open.map((stream) => stream.ended));
  expect(texts.map((text) => eventsOf(text).events.map((event) => `${event.id} ${event.data.status}`))).toEqual(texts.map(() => ["pending pending", "denied denied"]));
});

test("a client cannot forge the edge's mark on a stream: it gets the whole stream, as any other", async () => {
  const init = await createInit(from(MAIN_URL, "127.0.22.3"));
  for (const mark of ["AAAAAAAAAAAAAAAAAAAAAAAA 1 changed", "x 1", "1 deadline"]) {
    const stream = await openStream(MAIN_URL, "127.0.22.3", init.id, { "x-initlink-parking": mark });
    expect(stream.status).toBe(200);
    await stream.until(/^retry: 5000\n\nid: pending\ndata: \{.*\}\n\n$/);
    stream.close();
  }
});

/** The event streams the whole server holds now (its metrics, summed over the workers). */
async function streamsHeld(send: Send): Promise<number> {
  return sampleValue(parseMetrics((await send("GET", "/api/metrics")).text), "initlink_waiting_clients", { kind: "event_stream" }) ?? 0;
}

// 50 inits, 10 streams each, over four addresses; the gauge counts other specs' streams too, a few at most.
test("500 parked streams are answered correctly, and those whose clients leave free their places", async () => {
  test.setTimeout(60_000);
  const senders = [1, 2, 3, 4].map((n) => from(MAIN_URL, `127.0.23.${n}`));
  const person = await signUp(senders[0], { site: MAIN_URL, email: newEmail() });
  const inits = await manyInits(senders, 50);
  const streams = await Promise.all(inits.flatMap((init, index) => Array.from({ length: 10 }, (_, n) => openStream(MAIN_URL, `127.0.23.${((index + n) % 4) + 1}`, init.id))));
  expect(streams.every((stream) => stream.status === 200)).toBe(true);
  await Promise.all(streams.map((stream) => stream.until(/id: pending/)));
  expect(await streamsHeld(senders[0])).toBeGreaterThanOrEqual(500);
  // 20 inits approved, 20 denied; the clients of the last 10 inits' streams leave.
  await decide(senders[0], person, inits.slice(0, 20), inits.slice(20, 40));
  const texts = await Promise.all(streams.slice(0, 400).map((stream) => stream.ended));
  expect(texts.map((text) => eventsOf(text).events.map((event) => event.id).join(" "))).toEqual(texts.map((_, index) => (index < 200 ? "pending done" : "pending denied")));
  for (const stream of streams.slice(400)) stream.close();
  await expect.poll(() => streamsHeld(senders[0]), { timeout: 10_000 }).toBeLessThan(100);
});
