-- AlterTable
ALTER TABLE "Session" ADD COLUMN "address" TEXT;
ALTER TABLE "Session" ADD COLUMN "lastSeenAt" DATETIME;
ALTER TABLE "Session" ADD COLUMN "userAgent" TEXT;

-- AlterTable: a column with a constant default is added in place (SQLite allows it), rather
-- than the table rebuilt as Prisma's diff writes it, so that other additive changes to "User"
-- merge without clashing.
ALTER TABLE "User" ADD COLUMN "shareEmailWithClients" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "Init_userCode_idx" ON "Init"("userCode");

-- CreateIndex
CREATE INDEX "Session_userId_idx" ON "Session"("userId");
