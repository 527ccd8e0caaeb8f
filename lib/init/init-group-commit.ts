import { config } from "../config";
import type { Prisma } from "../generated/prisma/client";
import { databaseProvider } from "../database/database-url";
import { db } from "../database/db";
import { processWide } from "../process-wide";

// Group commit for Create Init. Each init is one durable row, and with SQLITE_SYNCHRONOUS=FULL a
// commit waits for an fsync (about 1.5 ms on these machines) while better-sqlite3, which is
// synchronous, holds the event loop: one commit per init bounds Create Init at a few hundred a
// second per process, whatever else the process could do. Rows that arrive while a commit is
// under way, or in the same turn of the event loop, go into the next commit together: one flush
// for many inits, each answered only once its own row is durable. On PostgreSQL it saves a
// round trip and a commit per row in the same way.
//
// The rows go in as one multi-row INSERT through Prisma's raw query, on Prisma's own connection
// (a write of the main file from another connection would wait on Prisma's open transactions
// with the event loop held). Prisma's createMany cost about 170 µs of CPU more per row (its
// query compiler and argument handling): 233 against 65 µs a row with the fsync, batches of
// 20–32, measured one after the other on one database.

/** An init as Create Init makes it; every other column takes its default (pending, undecided). */
export type InitRow = {
  id: string;
  userCode: string;
  secretHash: string;
  sender: string;
  senderDevice: string | null;
  senderOs: string | null;
  senderIp: string | null;
  bindingMessage: string | null;
  observedIp: string | null;
  observedUserAgent: string | null;
  intervalMs: number;
  createdAt: Date;
  expiresAt: Date;
  userCodeShown: boolean;
  dpopJkt: string | null;
};
type Waiting = { row: InitRow; resolve: () => void; reject: (error: unknown) => void };

// Every field of the row is a column of the INSERT: as a Record, the compiler wants each one.
const INSERTED: Record<keyof InitRow, true> = {
  id: true,
  userCode: true,
  secretHash: true,
  sender: true,
  senderDevice: true,
  senderOs: true,
  senderIp: true,
  bindingMessage: true,
  observedIp: true,
  observedUserAgent: true,
  intervalMs: true,
  createdAt: true,
  expiresAt: true,
  userCodeShown: true,
  dpopJkt: true,
};
const COLUMNS = Object.keys(INSERTED) as (keyof InitRow)[];
const COLUMN_LIST = COLUMNS.map((column) => `"${column}"`).join(", ");

type SqlArgument = string | number | boolean | Date | null;

/**
 * A column's value as the database keeps what Prisma writes: on SQLite a timestamp is ISO text
 * with a `+00:00` offset and a boolean 0 or 1 (compared as text and numbers by Prisma's own
 * queries, so it must be spelled the same); PostgreSQL takes both as they are.
 */
function sqliteValue(value: InitRow[keyof InitRow]): SqlArgument {
  if (value instanceof Date) return value.toISOString().replace("Z", "+00:00");
  if (typeof value === "boolean") return value ? 1 : 0;
  return value;
}

/** The INSERT of `rows` rows, for the database's placeholders (`?` or `$n`); made once per batch size. */
const insertStatements = new Map<string, string>();
function insertStatement(rows: number, postgresql: boolean): string {
  const key = `${postgresql}:${rows}`;
  let sql = insertStatements.get(key);
  if (sql === undefined) {
    let n = 0;
    // PostgreSQL is told the timestamps' type: a parameter sent as text is not cast to one.
    const placeholder = (column: keyof InitRow) => (!postgresql ? "?" : column === "createdAt" || column === "expiresAt" ? `$${++n}::timestamp(3)` : `$${++n}`);
    const tuple = () => `(${COLUMNS.map(placeholder).join(", ")})`;
    sql = `INSERT INTO "Init" (${COLUMN_LIST}) VALUES ${Array.from({ length: rows }, tuple).join(", ")}`;
    insertStatements.set(key, sql);
  }
  return sql;
}

/** Far below SQLite's 32,766 bound parameters per statement, with the Init model's columns. */
const MAX_ROWS_PER_COMMIT = 200;

const writer = () => processWide("init-group-commit", () => ({ waiting: [] as Waiting[], committing: false }));

/** Inserts the init's row; resolves once the commit holding it is durable. */
export function insertInit(row: InitRow): Promise<void> {
  const state = writer();
  return new Promise((resolve, reject) => {
    // The row must stay an Init of Prisma's model: a renamed or retyped required column fails
    // `tsc` here; the API tests read every column back through Prisma.
    state.waiting.push({ row: row satisfies Prisma.InitUncheckedCreateInput, resolve, reject });
    if (state.committing) return;
    state.committing = true;
    setImmediate(commitWaiting);
  });
}

async function commitWaiting(): Promise<void> {
  const state = writer();
  const batch = state.waiting.splice(0, MAX_ROWS_PER_COMMIT);
  try {
    const prisma = await db();
    const postgresql = databaseProvider(config().databaseUrl) === "postgresql";
    const values = batch.flatMap(({ row }) => COLUMNS.map((column) => (postgresql ? row[column] : sqliteValue(row[column]))));
    // One statement: one transaction, one flush, all rows or none. A failure is Prisma's raw
    // query error (P2010), which isUniqueViolation does not take for a unique key's: no caller
    // of Create Init tells them apart, each answers it with a 500.
    await prisma.$executeRawUnsafe(insertStatement(batch.length, postgresql), ...values);
    for (const each of batch) each.resolve();
  } catch (error) {
    for (const each of batch) each.reject(error);
  }
  if (state.waiting.length > 0) setImmediate(commitWaiting);
  else state.committing = false;
}
