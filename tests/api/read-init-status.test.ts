import { afterEach, describe, expect, it, vi } from "vitest";
import { config } from "@/lib/config";
import { databaseProvider } from "@/lib/database/database-url";
import { db } from "@/lib/database/db";
import { PEER_ADDRESS_HEADER } from "@/server/request-context.mjs";
import { createdInit, databaseSnapshot, getInitStatus, pollClocks } from "../helpers/api";

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

  it("keeps one clock for the holder of the secret and one for anyone else, so the person's browser never slows the client down", async () => {
    const init = await createdInit();
    const client = { authorization: `Bearer ${init.secret}` };
    travelTo(init.timestamp);
    expect((await getInitStatus(init.id, client)).status).toBe(200);
    expect((await getInitStatus(init.id, BROWSER)).status).toBe(200);
    travelTo(init.timestamp + 5000);
    expect((await getInitStatus(init.id, BROWSER)).status).toBe(200);
    expect((await getInitStatus(init.id, client)).status).toBe(200);
  });

  it("cannot be dodged by changing the User-Agent, the address or the spelling of Bearer", async () => {
    const init = await createdInit();
    travelTo(init.timestamp);
    expect((await getInitStatus(init.id)).status).toBe(200);
    for (const headers of [BROWSER, { "user-agent": "other/2.0" }, { [PEER_ADDRESS_HEADER]: "203.0.113.9" }, { "user-agent": "" }]) {
      expect((await getInitStatus(init.id, headers)).status).toBe(429);
    }
    expect((await getInitStatus(init.id, { authorization: `Bearer ${init.secret}` })).status).toBe(200);
    for (const authorization of [`bearer ${init.secret}`, `BEARER  ${init.secret}`, `Bearer ${init.secret} `]) {
      expect((await getInitStatus(init.id, { authorization, "user-agent": `cli/${authorization.length}` })).status).toBe(429);
    }
  });

  it("keeps one row per init and kind of poller however many polls arrive, updated in place", async () => {
    const init = await createdInit();
    let now = init.timestamp;
    for (let poll = 0; poll < 5; poll++) {
      travelTo(now);
      await getInitStatus(init.id, { "user-agent": `agent-${poll}` });
      await getInitStatus(init.id, { authorization: `Bearer ${init.secret}`, "user-agent": `agent-${poll}` });
      now += 5000;
    }
    expect((await pollClocks(init.id)).map((clock) => [clock.poller, clock.lastPolledAt])).toEqual([
      ["anyone", now - 5000],
      ["secret_holder", now - 5000],
    ]);
  });

  it("keeps two inits of one client apart", async () => {
    const first = await createdInit();
    const second = await createdInit();
    expect((await getInitStatus(first.id)).status).toBe(200);
    expect((await getInitStatus(second.id)).status).toBe(200);
  });

  it("lets exactly one of 50 simultaneous first polls of one kind through, however they vary their headers", async () => {
    const init = await createdInit();
    const polls = Array.from({ length: 50 }, (_unused, number) => getInitStatus(init.id, { "user-agent": `racer-${number}` }));
    const statuses = (await Promise.all(polls)).map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 429)).toHaveLength(49);
  });
});

describe("the counters' storage (the poll clock, the rate limits)", () => {
  it("is kept out of the durable-flush path: a WAL side file with synchronous=NORMAL on SQLite, UNLOGGED tables on PostgreSQL", async () => {
    const prisma = await db();
    if (databaseProvider(config().databaseUrl) === "postgresql") {
      const tables = await prisma.$queryRaw<{ relname: string; relpersistence: string }[]>`
        SELECT relname::text AS relname, relpersistence::text AS relpersistence FROM pg_class WHERE relname IN ('InitPollClock', 'RateLimit') ORDER BY relname`;
      expect(tables).toEqual([
        { relname: "InitPollClock", relpersistence: "u" },
        { relname: "RateLimit", relpersistence: "u" },
      ]);
    } else {
      const [journal] = await prisma.$queryRawUnsafe<{ journal_mode: string }[]>("PRAGMA counters.journal_mode");
      const [sync] = await prisma.$queryRawUnsafe<{ synchronous: bigint | number }[]>("PRAGMA counters.synchronous");
      expect([journal.journal_mode, Number(sync.synchronous)]).toEqual(["wal", 1]);
      const tables = await prisma.$queryRawUnsafe<{ name: string }[]>("SELECT name FROM counters.sqlite_master WHERE type = 'table' ORDER BY name");
      expect(tables.map((table) => table.name)).toEqual(["InitPollClock", "RateLimit"]);
      // The main file, synchronous as SQLITE_SYNCHRONOUS says, holds no counter.
      expect(await prisma.$queryRawUnsafe("SELECT name FROM main.sqlite_master WHERE name IN ('InitPollClock', 'RateLimit')")).toEqual([]);
    }
  });
});
