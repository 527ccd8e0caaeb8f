-- The rate-limit counters (lib/limits/rate-limit.ts), like the poll clock: UNLOGGED, so a
-- counted request costs no WAL flush; after a crash PostgreSQL empties the table, which lets at
-- most one window's worth of requests through again. Made anew rather than altered (SET
-- UNLOGGED rewrites the table under an exclusive lock): counters of windows under way restart
-- from zero once. No longer a Prisma model: only raw SQL touches it.
DROP TABLE "RateLimit";

CREATE UNLOGGED TABLE "RateLimit" (
    "key" TEXT NOT NULL,
    "window" BIGINT NOT NULL,
    "count" INTEGER NOT NULL,
    CONSTRAINT "RateLimit_pkey" PRIMARY KEY ("key")
);
