import { db } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { processWide } from "../process-wide";

// Group commit for Create Init. Each init is one durable row, and with SQLITE_SYNCHRONOUS=FULL a
// commit waits for an fsync (about 1.5 ms on these machines) while better-sqlite3, which is
// synchronous, holds the event loop: one commit per init bounds Create Init at a few hundred a
// second per process, whatever else the process could do. Rows that arrive while a commit is
// under way, or in the same turn of the event loop, go into the next commit together: one flush
// for many inits, each answered only once its own row is durable. On PostgreSQL it saves a
// round trip and a commit per row in the same way.

type InitRow = Prisma.InitCreateManyInput;
type Waiting = { row: InitRow; resolve: () => void; reject: (error: unknown) => void };

/** Far below SQLite's 32,766 bound parameters per statement, with the Init model's columns. */
const MAX_ROWS_PER_COMMIT = 200;

const writer = () => processWide("init-group-commit", () => ({ waiting: [] as Waiting[], committing: false }));

/** Inserts the init's row; resolves once the commit holding it is durable. */
export function insertInit(row: InitRow): Promise<void> {
  const state = writer();
  return new Promise((resolve, reject) => {
    state.waiting.push({ row, resolve, reject });
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
    // One statement: one transaction, one flush, all rows or none.
    await prisma.init.createMany({ data: batch.map((each) => each.row) });
    for (const each of batch) each.resolve();
  } catch (error) {
    for (const each of batch) each.reject(error);
  }
  if (state.waiting.length > 0) setImmediate(commitWaiting);
  else state.committing = false;
}
