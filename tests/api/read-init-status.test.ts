import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { createdInit, databaseSnapshot, getInitStatus } from "../helpers/api";

const BROWSER = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/156" };

afterEach(() => {
  vi.useRealTimers();
});

function travelTo(ms: number) {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(ms);
}

describe("GET /api/init/{id} — init status", () => {
  it("answers 200 with the status, the time of the answer, the interval and the expiry", async () => {
    const init = await createdInit();
    const before = Date.now();
    const response = await getInitStatus(init.id);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await response.json();
    expect(body).toEqual({ id: init.id, status: "pending", timestamp: expect.any(Number), interval: 5000, expires_at: init.expires_at });
    expect(body.timestamp).toBeGreaterThanOrEqual(before);
  });

  it.each([
    ["an unknown id", "AAAAAAAAAAAAAAAAAAAAAA"],
    ["a malformed id", "not-an-id"],
    ["a path traversal", ".."],
    ["an id with a NUL", "AAAAAAAAAAAAAAAAAAAAA\u0000"],
    ["an over-long id", "A".repeat(5000)],
  ])("answers 404 with a JSON error for %s", async (_label, id) => {
    const before = await databaseSnapshot();
    const response = await getInitStatus(id);
    expect(response.status).toBe(404);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ error: "No init with this id exists.", code: "not_found" });
    expect(await databaseSnapshot()).toEqual(before);
  });

  // An init past expires_at reads as expired whether or not a sweeper has run.
  it("reads as expired once expires_at has passed, with the row still pending", async () => {
    const init = await createdInit();
    travelTo(init.expires_at);
    const body = await (await getInitStatus(init.id)).json();
    expect(body.status).toBe("expired");
    const prisma = await db();
    expect((await prisma.init.findUniqueOrThrow({ where: { id: init.id } })).status).toBe("pending");
  });

  it("reads done and denied as stored, even past expiry", async () => {
    const prisma = await db();
    const done = await createdInit();
    const denied = await createdInit();
    await prisma.init.update({ where: { id: done.id }, data: { status: "done" } });
    await prisma.init.update({ where: { id: denied.id }, data: { status: "denied" } });
    travelTo(done.expires_at + 60_000);
    expect((await (await getInitStatus(done.id)).json()).status).toBe("done");
    expect((await (await getInitStatus(denied.id)).json()).status).toBe("denied");
  });
});

// RFC 8628 §3.5: polling faster than the interval gets slow_down (here 429 with Retry-After).
describe("GET /api/init/{id} — slow down", () => {
  it("never penalises the first poll, and tells a second immediate poll to slow down", async () => {
    const init = await createdInit();
    travelTo(init.timestamp);
    expect((await getInitStatus(init.id)).status).toBe(200);
    travelTo(init.timestamp + 1000);
    const response = await getInitStatus(init.id);
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("4");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ error: "Polling too fast: wait 5000 ms between requests.", code: "slow_down", interval: 5000 });
  });

  it("never slows down a client that polls at its interval, even with some jitter", async () => {
    const init = await createdInit();
    let now = init.timestamp;
    for (const gap of [5000, 5000, 4200, 5800, 4000, 5000]) {
      now += gap;
      travelTo(now);
      expect((await getInitStatus(init.id)).status).toBe(200);
    }
  });

  it("measures from the last accepted poll, so a rejected poll does not push the next one out", async () => {
    const init = await createdInit();
    travelTo(init.timestamp);
    expect((await getInitStatus(init.id)).status).toBe(200);
    travelTo(init.timestamp + 2000);
    expect((await getInitStatus(init.id)).status).toBe(429);
    travelTo(init.timestamp + 5000);
    expect((await getInitStatus(init.id)).status).toBe(200);
  });

  it("does not confuse the client with the person's browser polling the same init", async () => {
    const init = await createdInit();
    travelTo(init.timestamp);
    expect((await getInitStatus(init.id)).status).toBe(200);
    expect((await getInitStatus(init.id, BROWSER)).status).toBe(200);
    travelTo(init.timestamp + 5000);
    expect((await getInitStatus(init.id, BROWSER)).status).toBe(200);
    expect((await getInitStatus(init.id)).status).toBe(200);
  });

  it("keeps two inits of one client apart", async () => {
    const first = await createdInit();
    const second = await createdInit();
    expect((await getInitStatus(first.id)).status).toBe(200);
    expect((await getInitStatus(second.id)).status).toBe(200);
  });

  it("lets exactly one of two simultaneous first polls through", async () => {
    const init = await createdInit();
    const statuses = (await Promise.all([getInitStatus(init.id), getInitStatus(init.id)])).map((response) => response.status);
    expect(statuses.sort()).toEqual([200, 429]);
  });
});
