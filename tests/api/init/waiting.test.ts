import { afterEach, describe, expect, it, vi } from "vitest";
import { config } from "@/lib/config";
import { db } from "@/lib/database/db";
import { endOfWait, readInitRow } from "@/lib/init/read-init-status";
import { HEARTBEAT_MS } from "@/lib/api/event-stream";
import { REREAD_MS } from "@/lib/init/follow-init";
import { MAX_STREAMS_PER_INIT } from "@/lib/limits/rules";
import { waitingOn } from "@/lib/init/init-events";
import { createdInit, getInitStatus } from "../../helpers/api";
import { approve, deny, newAccount } from "../../helpers/forms";
import { dispatch } from "../../helpers/in-process";

// Waiting without polling: `Prefer: wait` (RFC 7240) on the status resource, and its event
// stream. Waits are short and the tests assert what a wait ends with, never how long it took.

const APPROVE_NEW = { project: "new", name: "Waited for", code_confirmed: "yes" };
const controllers: AbortController[] = [];

afterEach(() => {
  for (const controller of controllers.splice(0)) controller.abort();
});

/** A status request that a client may hold; `signal` aborts when the test ends. */
function held(id: string, prefer: string, headers: Record<string, string> = {}, signal?: AbortSignal) {
  const controller = new AbortController();
  controllers.push(controller);
  return dispatch("GET", `/api/init/${encodeURIComponent(id)}`, {
    headers: { "user-agent": "acme-cli/1.0", prefer, ...headers },
    signal: signal ?? controller.signal,
  });
}

/** Resolves once `count` requests of this process wait on the init. */
const waiting = (id: string, count = 1) => vi.waitFor(() => expect(waitingOn(id)).toBe(count), { timeout: 10_000 });

describe("GET /api/init/{id} with Prefer: wait", () => {
  it("ends when the init is approved, and answers as a poll does", async () => {
    const { token } = await newAccount();
    const init = await createdInit();
    const answer = held(init.id, "wait=30");
    await waiting(init.id);
    expect((await approve(init.id, token, APPROVE_NEW)).status).toBe(303);
    const response = await answer;
    expect(response.status).toBe(200);
    expect(response.headers.get("preference-applied")).toBe("wait=30");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await response.json();
    expect(body).toMatchObject({ id: init.id, status: "done", project_id: init.id, interval: 5000, expires_at: init.expires_at });
    expect(body).not.toHaveProperty("access_token");
    expect(waitingOn(init.id)).toBe(0);
  });

  it("hands the secret's holder its token pickup when its held request sees the approval", async () => {
    const { token } = await newAccount();
    const init = await createdInit();
    const answer = held(init.id, "wait=30", { authorization: `Bearer ${init.secret}` });
    await waiting(init.id);
    await approve(init.id, token, APPROVE_NEW);
    const body = await (await answer).json();
    expect(body).toMatchObject({ status: "done", project: { id: init.id, name: "Waited for" }, approved_by: null });
    expect(body.access_token).toMatch(/^ilat_/);
  });

  // The wait saw the approval, and its client left before the answer was made (a wake and a
  // disconnect at the same moment): the answer nobody reads spends no pickup.
  it("spends no token on the answer of a wait whose client left: the client's next request collects it", async () => {
    const { token } = await newAccount();
    const init = await createdInit();
    await approve(init.id, token, APPROVE_NEW);
    const row = await readInitRow(init.id);
    const left = new AbortController();
    left.abort();
    const holder = { secret: init.secret, dpopJkt: async () => null };
    const unread = await endOfWait(config(), row!, "done", Date.now(), holder, () => ({ address: "127.0.0.1", userAgent: "acme-cli/1.0" }), left.signal);
    expect(unread).toMatchObject({ status: "done" });
    expect(unread).not.toHaveProperty("access_token");
    const collected = await (await getInitStatus(init.id, { authorization: `Bearer ${init.secret}` })).json();
    expect(collected.access_token).toMatch(/^ilat_/);
  });

  it("ends when the init is denied", async () => {
    const { token } = await newAccount();
    const init = await createdInit();
    const answer = held(init.id, "wait=30");
    await waiting(init.id);
    expect((await deny(init.id, token)).status).toBe(303);
    expect(await (await answer).json()).toMatchObject({ status: "denied" });
  });

  // The fifth wrong code denies the init (lib/init/code-check.ts): a denial like any other.
  it("ends when the init is denied by too many wrong codes", async () => {
    const { token } = await newAccount();
    const init = await createdInit({ sender: "@acme/cli", user_code_shown: true });
    const answer = held(init.id, "wait=30");
    await waiting(init.id);
    const started = Date.now();
    for (let attempt = 0; attempt < 5; attempt++) expect((await approve(init.id, token, { project: "new", name: "x", user_code: "BBBB-BBBB" })).status).toBe(303);
    expect(await (await answer).json()).toMatchObject({ status: "denied" });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("ends when the init expires, with nothing published", async () => {
    const init = await createdInit();
    const prisma = await db();
    await prisma.init.update({ where: { id: init.id }, data: { expiresAt: new Date(Date.now() + 1500) } });
    const response = await held(init.id, "wait=30");
    expect(await response.json()).toMatchObject({ id: init.id, status: "expired" });
  });

  it("ends after its wait with the status as it then is", async () => {
    const init = await createdInit();
    const response = await held(init.id, "wait=1");
    expect(response.status).toBe(200);
    expect(response.headers.get("preference-applied")).toBe("wait=1");
    expect(await response.json()).toMatchObject({ status: "pending" });
    expect(waitingOn(init.id)).toBe(0);
  });

  // RFC 7240 §4.3 lets the server cap the wait; it says which in Preference-Applied (§3).
  it("caps the wait at 60 seconds and answers a decided init at once", async () => {
    const { token } = await newAccount();
    const init = await createdInit();
    await deny(init.id, token);
    const response = await held(init.id, "wait=3600");
    expect(response.headers.get("preference-applied")).toBe("wait=60");
    expect(await response.json()).toMatchObject({ status: "denied" });
  });

  it("is one poll: admitted at its start, and a poll right after it is told to slow down", async () => {
    const init = await createdInit();
    expect((await held(init.id, "wait=1")).status).toBe(200);
    const next = await getInitStatus(init.id);
    expect(next.status).toBe(429);
    expect((await next.json()).code).toBe("slow_down");
    const early = await held(init.id, "wait=30");
    expect(early.status).toBe(429);
    expect(early.headers.get("preference-applied")).toBeNull();
  });

  it("lets go of the wait at once when the client disconnects", async () => {
    const init = await createdInit();
    const controller = new AbortController();
    const answer = held(init.id, "wait=30", {}, controller.signal);
    await waiting(init.id);
    controller.abort();
    await answer.catch(() => undefined);
    await waiting(init.id, 0);
  });

  it("is not held without a wait preference, nor for wait=0", async () => {
    const init = await createdInit();
    const plain = await getInitStatus(init.id);
    expect(plain.headers.get("preference-applied")).toBeNull();
    const other = await createdInit();
    const zero = await held(other.id, "wait=0");
    expect(zero.headers.get("preference-applied")).toBe("wait=0");
    expect(await zero.json()).toMatchObject({ status: "pending" });
  });

  // RFC 9110 §9.3.2: HEAD has no content to wait for; held, it cost the route's whole request.
  it("answers HEAD at once, holding nothing, whatever it prefers", async () => {
    const init = await createdInit();
    const head = await dispatch("HEAD", `/api/init/${init.id}`, { headers: { "user-agent": "acme-cli/1.0", prefer: "wait=2" } });
    expect(head.status).toBe(200);
    expect(head.headers.get("preference-applied")).toBeNull();
    expect(waitingOn(init.id)).toBe(0);
  });

  // RFC 7240 §2: a preference the server cannot use is ignored, never an error.
  it.each([
    ["wait=abc", null],
    ["wait=-1", null],
    ["wait=1.5", null],
    ["wait=", null],
    ["wait", null],
    ["wait=99999999999999999999999999", null],
    ['wait="', null],
    ["=5", null],
    [",,,;;;", null],
    ["wait=5\u0001", null],
    ["respond-async, wait=5", "wait=5"],
    ["WAIT = 7 ; foo=bar", "wait=7"],
    ['wait="8"', "wait=8"],
    ["handling=lenient, Wait=9, wait=1", "wait=9"],
    ['foo="a,wait=1", wait=4', "wait=4"],
    ["wait=000000000003", "wait=3"],
    ["wait=600", "wait=60"],
    [`${"x=1, ".repeat(2000)}wait=2`, "wait=2"],
  ])("never fails on a hostile or unusual Prefer header (case %#)", async (prefer, applied) => {
    const { token } = await newAccount();
    const init = await createdInit();
    await deny(init.id, token);
    const response = await held(init.id, prefer);
    expect(response.status).toBe(200);
    expect(response.headers.get("preference-applied")).toBe(applied);
    expect(await response.json()).toMatchObject({ status: "denied" });
  });
});

type StreamEvent = { id?: string; data?: unknown; comment?: string; retry?: number };

/** Reads Server-Sent Events off a response body, one parsed event at a time. */
function eventReader(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  return {
    async next(): Promise<StreamEvent | null> {
      for (;;) {
        const end = buffer.indexOf("\n\n");
        if (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event: StreamEvent = {};
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) event.comment = line.slice(1).trim();
            else if (line.startsWith("id: ")) event.id = line.slice(4);
            else if (line.startsWith("data: ")) event.data = JSON.parse(line.slice(6));
            else if (line.startsWith("retry: ")) event.retry = Number(line.slice(7));
          }
          return event;
        }
        const { done, value } = await reader.read();
        if (done) return null;
        buffer += decoder.decode(value, { stream: true });
      }
    },
    cancel: () => reader.cancel(),
  };
}

function events(id: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  controllers.push(controller);
  return dispatch("GET", `/api/init/${encodeURIComponent(id)}/events`, { headers, signal: controller.signal });
}

describe("GET /api/init/{id}/events", () => {
  it("streams the status, then each change, and closes after the final one", async () => {
    const { token } = await newAccount();
    const init = await createdInit();
    const response = await events(init.id);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store, no-transform");
    const stream = eventReader(response);
    expect(await stream.next()).toEqual({ retry: 5000 });
    const first = await stream.next();
    expect(first).toEqual({ id: "pending", data: { id: init.id, status: "pending", timestamp: expect.any(Number), interval: 5000, expires_at: init.expires_at } });
    await approve(init.id, token, APPROVE_NEW);
    const second = await stream.next();
    expect(second).toMatchObject({ id: "done", data: { status: "done", project_id: init.id } });
    // The stream is anonymous: it never carries the pickup's extras.
    expect(second?.data).not.toHaveProperty("project");
    expect(await stream.next()).toBeNull();
    expect(waitingOn(init.id)).toBe(0);
  });

  it("honours Last-Event-ID: no event is repeated, and after the final one a reconnect gets 204", async () => {
    const { token } = await newAccount();
    const init = await createdInit();
    const stream = eventReader(await events(init.id, { "last-event-id": "pending" }));
    expect(await stream.next()).toEqual({ retry: 5000 });
    await waiting(init.id);
    await deny(init.id, token);
    expect(await stream.next()).toMatchObject({ id: "denied", data: { status: "denied" } });
    expect(await stream.next()).toBeNull();
    const reconnect = await events(init.id, { "last-event-id": "denied" });
    expect(reconnect.status).toBe(204);
    // An id the stream never sent is no id at all: the stream starts over.
    const fresh = eventReader(await events(init.id, { "last-event-id": "bogus" }));
    await fresh.next();
    expect(await fresh.next()).toMatchObject({ id: "denied" });
  });

  it("ends with the expired event when the init expires", async () => {
    const init = await createdInit();
    const prisma = await db();
    await prisma.init.update({ where: { id: init.id }, data: { expiresAt: new Date(Date.now() + 1500) } });
    const stream = eventReader(await events(init.id));
    await stream.next();
    expect(await stream.next()).toMatchObject({ id: "pending" });
    expect(await stream.next()).toMatchObject({ id: "expired", data: { status: "expired" } });
    expect(await stream.next()).toBeNull();
  });

  // A timer may end a moment before Date.now() reaches its deadline: the wait for the expiry
  // that ends early is not a heartbeat (it was sent as one, before the expired event).
  it("sends no heartbeat when its wait for the expiry ends a moment early", async () => {
    const init = await createdInit();
    const prisma = await db();
    await prisma.init.update({ where: { id: init.id }, data: { expiresAt: new Date(Date.now() + 1000) } });
    const realSetTimeout = globalThis.setTimeout;
    const realSleep = (ms: number) => new Promise((resolve) => realSetTimeout(resolve, ms));
    // Faked before the stream opens, so that its wait for the expiry is a fake timer.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const stream = eventReader(await events(init.id));
      await stream.next();
      expect(await stream.next()).toMatchObject({ id: "pending" });
      // The expiry's timer ends while the clock still reads before the expiry.
      await vi.advanceTimersByTimeAsync(1000);
      await realSleep(1100);
      await vi.advanceTimersByTimeAsync(1000);
      expect(await stream.next()).toMatchObject({ id: "expired", data: { status: "expired" } });
      expect(await stream.next()).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it("reads the row again every REREAD_MS, between heartbeats, so a change whose notice was lost still arrives", async () => {
    const init = await createdInit();
    // Faked before the stream opens, so that its heartbeats and its wait for a change are fake timers.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const stream = eventReader(await events(init.id));
    try {
      await stream.next();
      expect(await stream.next()).toMatchObject({ id: "pending" });
      // Denied behind the service's back: no notice is published.
      const prisma = await db();
      await prisma.init.update({ where: { id: init.id }, data: { status: "denied", decidedAt: new Date() } });
      for (let beat = 1; beat < REREAD_MS / HEARTBEAT_MS; beat++) {
        await vi.advanceTimersByTimeAsync(HEARTBEAT_MS);
        expect(await stream.next()).toEqual({ comment: "heartbeat" });
      }
      // At REREAD_MS the row is read again and the denial arrives, beside the heartbeat due then or instead of it.
      await vi.advanceTimersByTimeAsync(HEARTBEAT_MS);
      const due = await stream.next();
      expect(due?.comment === "heartbeat" ? await stream.next() : due).toMatchObject({ id: "denied", data: { status: "denied" } });
    } finally {
      vi.useRealTimers();
    }
    expect(await stream.next()).toBeNull();
  });

  it("does not count as a poll: two tabs and the client's poll all go through", async () => {
    const init = await createdInit();
    const tabs = [eventReader(await events(init.id)), eventReader(await events(init.id))];
    for (const tab of tabs) {
      await tab.next();
      expect(await tab.next()).toMatchObject({ id: "pending" });
    }
    expect((await getInitStatus(init.id)).status).toBe(200);
    await Promise.all(tabs.map((tab) => tab.cancel()));
    await waiting(init.id, 0);
  });

  it(`allows ${MAX_STREAMS_PER_INIT} open streams per init, then answers 429`, async () => {
    const init = await createdInit();
    const open = await Promise.all(Array.from({ length: MAX_STREAMS_PER_INIT }, () => events(init.id)));
    expect(open.map((response) => response.status)).toEqual(open.map(() => 200));
    const refused = await events(init.id);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: "rate_limited" });
    await Promise.all(open.map((response) => response.body!.cancel()));
    expect((await events(init.id)).status).toBe(200);
  });

  it.each([
    ["an unknown id", "AAAAAAAAAAAAAAAAAAAAAA"],
    ["a malformed id", "not-an-id"],
    ["an over-long id", "A".repeat(5000)],
  ])("answers 404 with a JSON error for %s, before any stream", async (_label, id) => {
    const response = await events(id);
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(await response.json()).toEqual({ error: "No init with this id exists.", code: "not_found" });
  });
});
