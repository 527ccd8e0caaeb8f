import Sqlite from "better-sqlite3";
import type { Pool, QueryConfig } from "pg";
import { config, type Config } from "../config";
import { countersFile, databaseProvider, sqliteFilePath } from "./database-url";
import { db, postgresqlPool } from "./db";
import { processWide } from "../process-wide";

// The few statements of the hot paths (a status poll's read of its init, the poll clock) run on
// the database driver itself, not through Prisma's query layer: a CPU profile of the status poll
// put most of our own time there (the client, its WebAssembly query compiler and the adapter,
// about 0.3 ms per statement), against a few microseconds for a prepared better-sqlite3
// statement. Everything else, and every write of durable state, stays with Prisma. The
// statements are plain SQL that SQLite and PostgreSQL share, `?` for each parameter; on
// PostgreSQL they use Prisma's own pool (lib/database/db.ts), so the connection budget is unchanged.

export type SqlValue = string | number | null;

export type DirectSql = {
  /** The first row the query returns, or undefined. */
  one<Row>(sql: string, params: readonly SqlValue[]): Promise<Row | undefined>;
  /** Every row the query returns. */
  all<Row>(sql: string, params: readonly SqlValue[]): Promise<Row[]>;
  /** Runs a write; resolves with the rows it changed. */
  run(sql: string, params: readonly SqlValue[]): Promise<number>;
};

/** The tables of counters kept out of the durable-flush path (made by lib/database/sqlite-setup.ts, or a PostgreSQL migration); only these statements touch them. */
export type CounterTable = "InitPollClock" | "RateLimit";

/** A counter table as SQL names it: in the side file attached on SQLite, an UNLOGGED table on PostgreSQL. */
export const counterTable = (name: CounterTable) => (databaseProvider(config().databaseUrl) === "postgresql" ? `"${name}"` : `counters."${name}"`);

/** `?, ?, …`: one placeholder for each of `values`, for `IN (…)`. */
export const placeholders = (values: readonly unknown[]) => values.map(() => "?").join(", ");

/** A timestamp column as milliseconds: SQLite holds Prisma's ISO text with its offset, PostgreSQL's text has none and is UTC. */
export function timestampMs(value: string): number {
  return Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value.replace(" ", "T")}Z`);
}

// A connection of its own, beside Prisma's: better-sqlite3 runs each statement to its end
// synchronously and we open no transaction across an await, so the two never wait on each
// other within a process; other processes' writers are waited for up to the busy timeout, as
// Prisma's connection does.
function openSqlite(cfg: Config): DirectSql {
  const file = sqliteFilePath(cfg.databaseUrl);
  const connection = new Sqlite(file, { timeout: 5000 });
  connection.pragma(`synchronous = ${cfg.sqliteSynchronous}`);
  connection.pragma("foreign_keys = ON");
  connection.prepare("ATTACH DATABASE ? AS counters").run(countersFile(file));
  connection.pragma("counters.synchronous = NORMAL");
  const statements = new Map<string, Sqlite.Statement>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = connection.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  return {
    one: async <Row>(sql: string, params: readonly SqlValue[]) => prepared(sql).get(...params) as Row | undefined,
    all: async <Row>(sql: string, params: readonly SqlValue[]) => prepared(sql).all(...params) as Row[],
    run: async (sql, params) => prepared(sql).run(...params).changes,
  };
}

/** Every column as the text PostgreSQL sends: a timestamp without time zone must not be read as local time. */
const asText = { getTypeParser: () => (value: string) => value };

function openPostgresql(pool: Pool): DirectSql {
  // `?` → `$n`; the SQL is our own constants, which never hold a `?` of their own.
  const numbered = new Map<string, string>();
  const query = (sql: string, params: readonly SqlValue[]): QueryConfig<SqlValue[]> => {
    let text = numbered.get(sql);
    if (text === undefined) {
      let n = 0;
      text = sql.replace(/\?/g, () => `$${++n}`);
      numbered.set(sql, text);
    }
    return { text, values: [...params], types: asText };
  };
  return {
    one: async <Row>(sql: string, params: readonly SqlValue[]) => (await pool.query(query(sql, params))).rows[0] as Row | undefined,
    all: async <Row>(sql: string, params: readonly SqlValue[]) => (await pool.query(query(sql, params))).rows as Row[],
    run: async (sql, params) => (await pool.query(query(sql, params))).rowCount ?? 0,
  };
}

const opened = processWide("direct-sql", () => ({ ready: undefined as Promise<DirectSql> | undefined }));

export function directSql(): Promise<DirectSql> {
  if (opened.ready === undefined) {
    const cfg = config();
    // After Prisma's client, which has set the database up (lib/database/sqlite-setup.ts).
    const ready = db().then(() => (databaseProvider(cfg.databaseUrl) === "postgresql" ? openPostgresql(postgresqlPool(cfg)) : openSqlite(cfg)));
    opened.ready = ready;
    ready.catch(() => {
      if (opened.ready === ready) opened.ready = undefined;
    });
  }
  return opened.ready;
}
