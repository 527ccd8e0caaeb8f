import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { countersFile } from "@/lib/database/database-url";
import { setUpSqlite } from "@/lib/database/sqlite-setup";

// Workers of one server open a new database at the same moment. Switching it to WAL needs the
// file to itself; a worker that got SQLITE_BUSY there never served (every request answered 500).
// Here another connection holds the file, as the other worker would, and lets go a moment later.

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function migratedDatabase(): string {
  const folder = mkdtempSync(path.join(tmpdir(), "initlink-setup-"));
  folders.push(folder);
  const file = path.join(folder, "initlink.db");
  const database = new Database(file);
  database.exec('CREATE TABLE "Init" ("id" TEXT PRIMARY KEY)');
  database.close();
  return file;
}

describe("setting up a SQLite database", () => {
  it("waits out another connection that holds the file, then leaves both files in WAL with the counters' tables", async () => {
    const file = migratedDatabase();
    const other = new Database(file);
    other.exec("BEGIN IMMEDIATE");
    setTimeout(() => other.exec("COMMIT"), 200);
    await setUpSqlite(file);
    other.close();
    const check = new Database(file);
    check.prepare("ATTACH DATABASE ? AS counters").run(countersFile(file));
    expect(check.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(check.pragma("counters.journal_mode", { simple: true })).toBe("wal");
    const tables = check.prepare("SELECT name FROM counters.sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
    expect(tables).toEqual(["InitPollClock", "RateLimit"]);
    check.close();
  });

  it("is done once: a second set-up changes nothing and needs no lock another connection holds", async () => {
    const file = migratedDatabase();
    await setUpSqlite(file);
    const other = new Database(file);
    other.exec("BEGIN IMMEDIATE");
    await setUpSqlite(file);
    other.exec("COMMIT");
    other.close();
  });
});
