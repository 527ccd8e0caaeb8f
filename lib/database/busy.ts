import { ApiError } from "../errors";

// Errors that say the database could not take a statement in time, not that the request or our
// code is wrong: every connection of the PostgreSQL pool busy past its wait (DATABASE_POOL_SIZE;
// pg-pool's own error), a transaction that could not start in time (Prisma's P2028 of that kind) or a query
// that timed out (P1008, P2024), SQLite's write lock held past the busy timeout by another
// process (SQLITE_BUSY). route() answers them 503 `unavailable` with Retry-After, as
// /api/health answers a database that does not answer, instead of a 500.

const PG_POOL_TIMEOUT = "timeout exceeded when trying to connect";
const BUSY_PRISMA_CODES = new Set(["P1008", "P2024"]);
// P2028 is every error of Prisma's transaction API; only this one is the database's load (a
// transaction that is not found or already closed would be our bug, and stays a 500).
const TRANSACTION_NOT_STARTED = "Unable to start a transaction in the given time";

export function isDatabaseBusy(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.message === PG_POOL_TIMEOUT) return true;
  const code = "code" in error && typeof error.code === "string" ? error.code : null;
  if (code !== null && BUSY_PRISMA_CODES.has(code)) return true;
  if (code === "P2028") return error.message.includes(TRANSACTION_NOT_STARTED);
  return error.message.includes("SQLITE_BUSY");
}

/** The answer to a request the database could not take in time. */
export const databaseBusy = () => new ApiError("unavailable", "The database is busy. Try again in a moment.", { retryInSeconds: 2 });
