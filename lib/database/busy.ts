import { ApiError } from "../errors";

// Errors that say the database could not take a statement in time, not that the request or our
// code is wrong: every connection of the PostgreSQL pool busy past its wait (DATABASE_POOL_SIZE;
// pg-pool's own error), a transaction that could not start in time (Prisma's P2028) or a query
// that timed out (P1008, P2024), SQLite's write lock held past the busy timeout by another
// process (SQLITE_BUSY). route() answers them 503 `unavailable` with Retry-After, as
// /api/health answers a database that does not answer, instead of a 500.

const PG_POOL_TIMEOUT = "timeout exceeded when trying to connect";
const BUSY_PRISMA_CODES = new Set(["P1008", "P2024", "P2028"]);

export function isDatabaseBusy(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.message === PG_POOL_TIMEOUT) return true;
  if ("code" in error && typeof error.code === "string" && BUSY_PRISMA_CODES.has(error.code)) return true;
  return error.message.includes("SQLITE_BUSY");
}

/** The answer to a request the database could not take in time. */
export const databaseBusy = () => new ApiError("unavailable", "The database is busy. Try again in a moment.", { retryInSeconds: 2 });
