import { describe, expect, it } from "vitest";
import { config } from "@/lib/config";
import { databaseProvider } from "@/lib/database/database-url";
import { db } from "@/lib/database/db";

// The counters (the poll clock, the rate limits' windows) live in tables only raw SQL touches
// (lib/database/direct-sql.ts, counterTable), kept out of the durable-flush path.

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
