-- The session that typed the init's code at /device (lib/init/code-entry.ts): Approve takes it
-- once as the code typed, for that session only, instead of a code carried in the URL.
-- AlterTable
ALTER TABLE "Init" ADD COLUMN "codeEnteredSessionId" TEXT;

