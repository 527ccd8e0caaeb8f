import { describe, expect, it } from "vitest";
import { config } from "@/lib/config";
import { databaseProvider } from "@/lib/database/database-url";
import { directSql } from "@/lib/database/direct-sql";
import { createdInit } from "../../helpers/api";
import { deny, newAccount } from "../../helpers/forms";
import { changedTables, databaseFingerprint } from "../../helpers/hostile";
import { inProcess } from "../../helpers/in-process";

// A database that cannot take a request in time (lib/database/busy.ts): on PostgreSQL every
// connection of the pool held past the pool's 5 s wait, on SQLite the write lock held by another
// connection past the 5 s busy timeout. The request is answered 503 unavailable with
// Retry-After (a form: ?error=unavailable), never a 500, and writes nothing.
const HELD_MS = 6000;

async function whileDatabaseHeld<T>(act: () => Promise<T>): Promise<T> {
  const sql = await directSql();
  let released: Promise<unknown>;
  if (databaseProvider(config().databaseUrl) === "postgresql") {
    released = Promise.all(Array.from({ length: config().databasePoolSize }, () => sql.one(`SELECT pg_sleep(${HELD_MS / 1000})`, [])));
    // Each sleep has its connection before the request asks for one.
    await new Promise((resolve) => setTimeout(resolve, 200));
  } else {
    await sql.run("BEGIN IMMEDIATE", []);
    released = new Promise((resolve) => setTimeout(resolve, HELD_MS)).then(() => sql.run("COMMIT", []));
  }
  try {
    return await act();
  } finally {
    await released;
  }
}

describe("a database too busy to take the request", () => {
  it("answers 503 unavailable with Retry-After, a form ?error=unavailable, and writes nothing", async () => {
    const person = await newAccount();
    const pending = await createdInit();
    const before = await databaseFingerprint();
    const [created, denied] = await whileDatabaseHeld(() =>
      Promise.all([inProcess("POST", "/api/init", JSON.stringify({ sender: "@acme/cli" }), { "content-type": "application/json", "user-agent": "acme-cli/1.0" }), deny(pending.id, person.token)]),
    );
    expect(created.status).toBe(503);
    expect(created.headers["retry-after"]).toBe("2");
    expect(JSON.parse(created.text)).toEqual({ error: "The database is busy. Try again in a moment.", code: "unavailable" });
    expect(denied.status).toBe(303);
    expect(denied.headers.get("location")).toBe(`https://initlink.test/init/${pending.id}?error=unavailable`);
    // A counter of the address's Create Init may have been taken before the insert failed.
    expect(changedTables(before, await databaseFingerprint(), ["RateLimit"])).toEqual([]);
  }, 30_000);
});
