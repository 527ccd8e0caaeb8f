-- The poll clock moved to a side file attached by lib/db.ts (lib/init/poll-interval.ts).
-- DropTable
PRAGMA foreign_keys=off;
DROP TABLE "InitPoll";
PRAGMA foreign_keys=on;

