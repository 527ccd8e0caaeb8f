-- DropForeignKey
ALTER TABLE "InitPoll" DROP CONSTRAINT "InitPoll_initId_fkey";

-- DropTable
DROP TABLE "InitPoll";

-- The poll clock (lib/init/poll-interval.ts): one row per init and kind of poller, updated in
-- place. UNLOGGED: no WAL, so an accepted poll costs no flush; after a crash PostgreSQL empties
-- it, which lets at most one poll per poller through early. Not a Prisma model: only raw SQL
-- touches it, and the sweep drops the clocks of deleted inits.
CREATE UNLOGGED TABLE "InitPollClock" (
    "initId" TEXT NOT NULL,
    "poller" TEXT NOT NULL,
    "lastPolledAt" BIGINT NOT NULL,
    CONSTRAINT "InitPollClock_pkey" PRIMARY KEY ("initId", "poller")
);
