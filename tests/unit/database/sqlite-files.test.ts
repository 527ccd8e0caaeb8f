import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { countersFile, prepareSqliteFiles } from "@/lib/database/database-url";

// The SQLite database holds password hashes and sealed keys: its folder and every file of it
// (the database, its -wal and -shm, the poll clock's database and its own) are the owner's alone.

const modeOf = (file: string) => statSync(file).mode & 0o777;

describe("SQLite files", () => {
  it("creates the folder 0700 and the database, WAL, shared-memory and poll-clock files 0600", () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "initlink-files-")), "nested", "data", "initlink.db");
    prepareSqliteFiles(file);
    // What lib/database/sqlite-setup.ts does next: WAL on both databases, and writes that make the side files.
    const database = new Database(file);
    database.pragma("journal_mode = WAL");
    database.prepare("ATTACH DATABASE ? AS counters").run(countersFile(file));
    database.pragma("counters.journal_mode = WAL");
    database.exec("CREATE TABLE main.t (x); INSERT INTO main.t VALUES (1); CREATE TABLE counters.p (x); INSERT INTO counters.p VALUES (1);");
    const files = [file, `${file}-wal`, `${file}-shm`, countersFile(file), `${countersFile(file)}-wal`, `${countersFile(file)}-shm`];
    expect(files.map((each) => [path.basename(each), modeOf(each).toString(8)])).toEqual(files.map((each) => [path.basename(each), "600"]));
    expect(modeOf(path.dirname(file)).toString(8)).toBe("700");
    expect(modeOf(path.dirname(path.dirname(file))).toString(8)).toBe("700");
    database.close();
  });

  it("narrows a database file that is readable by others to 0600", () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "initlink-files-")), "initlink.db");
    writeFileSync(file, "");
    chmodSync(file, 0o644);
    prepareSqliteFiles(file);
    expect(modeOf(file).toString(8)).toBe("600");
  });

  it("makes a fresh database owner-only when npm start migrates it (prisma migrate deploy)", () => {
    const folder = path.join(mkdtempSync(path.join(tmpdir(), "initlink-files-")), "data");
    const file = path.join(folder, "initlink.db");
    const migrate = spawnSync(process.execPath, ["scripts/prisma.mjs", "migrate", "deploy"], { encoding: "utf8", env: { ...process.env, DATABASE_URL: `file:${file}` } });
    expect(migrate.status, migrate.stderr).toBe(0);
    expect(modeOf(folder).toString(8)).toBe("700");
    expect(modeOf(file).toString(8)).toBe("600");
  });
});
