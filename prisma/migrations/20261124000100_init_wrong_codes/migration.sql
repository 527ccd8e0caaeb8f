-- The wrong codes of the strict code check counted apart from the attempts being compared
-- (lib/init/code-check.ts), so that only a fifth wrong code denies an init, whatever order
-- concurrent codes are compared in.
-- AlterTable
ALTER TABLE "Init" ADD COLUMN "wrongCodes" INTEGER NOT NULL DEFAULT 0;
