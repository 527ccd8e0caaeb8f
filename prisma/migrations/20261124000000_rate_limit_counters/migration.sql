-- The rate-limit counters moved to the counters' side file attached by lib/db.ts
-- (lib/limits/rate-limit.ts), beside the poll clock: a counted request no longer waits for a
-- flush. Counters of windows under way restart from zero once.
-- DropTable
DROP TABLE "RateLimit";
