-- AlterTable
ALTER TABLE "Init" ADD COLUMN "dpopJkt" TEXT;

-- AlterTable
ALTER TABLE "AccessToken" ADD COLUMN "dpopJkt" TEXT;

-- CreateTable
CREATE TABLE "DpopProof" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "expiresAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "DpopProof_expiresAt_idx" ON "DpopProof"("expiresAt");

