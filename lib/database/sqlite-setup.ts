import Sqlite from "better-sqlite3";
import { countersFile, prepareSqliteFiles } from "./database-url";

// What a SQLite database needs once, whichever process opens it first: WAL for the database and
// the counters' side file (a lasting property of each file), and the counters' tables, which no
// migration makes (lib/database/db.ts says why). Switching a file to WAL takes a lock SQLite does not wait
// for: workers of one server opening a new database at the same moment got SQLITE_BUSY, and the
// one that lost never served. So it is done here, on a connection of its own, and tried again
// while another process is doing the same.

const COUNTER_TABLES = [
  'CREATE TABLE IF NOT EXISTS counters."InitPollClock" ("initId" TEXT NOT NULL, "poller" TEXT NOT NULL, "lastPolledAt" INTEGER NOT NULL, PRIMARY KEY ("initId", "poller")) WITHOUT ROWID',
  'CREATE TABLE IF NOT EXISTS counters."RateLimit" ("key" TEXT NOT NULL PRIMARY KEY, "window" INTEGER NOT NULL, "count" INTEGER NOT NULL) WITHOUT ROWID',
];

/** How long one attempt waits for a lock (better-sqlite3 waits synchronously), and for all attempts. */
const ATTEMPT_WAIT_MS = 1000;
const GIVE_UP_AFTER_MS = 10_000;

const isBusy = (error: unknown) => error instanceof Sqlite.SqliteError && error.code.startsWith("SQLITE_BUSY");

function setUpOnce(file: string): void {
  const connection = new Sqlite(file, { timeout: ATTEMPT_WAIT_MS });
  try {
    connection.pragma("journal_mode = WAL");
    connection.prepare("ATTACH DATABASE ? AS counters").run(countersFile(file));
    connection.pragma("counters.journal_mode = WAL");
    for (const statement of COUNTER_TABLES) connection.exec(statement);
  } finally {
    connection.close();
  }
}

/** Makes the database at `file` ready for any number of connections, from any number of processes. */
export async function setUpSqlite(file: string): Promise<void> {
  prepareSqliteFiles(file);
  const giveUpAt = Date.now() + GIVE_UP_AFTER_MS;
  for (;;) {
    try {
      setUpOnce(file);
      return;
    } catch (error) {
      if (!isBusy(error) || Date.now() > giveUpAt) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 80));
    }
  }
}
