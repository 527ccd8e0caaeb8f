-- AlterTable
ALTER TABLE "User" ADD COLUMN     "shareEmailWithClients" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Session" ADD COLUMN     "address" TEXT,
ADD COLUMN     "lastSeenAt" TIMESTAMP(3),
ADD COLUMN     "userAgent" TEXT;

-- CreateIndex
CREATE INDEX "Init_userCode_idx" ON "Init"("userCode");

-- CreateIndex
CREATE INDEX "Session_userId_idx" ON "Session"("userId");

