-- AlterTable
ALTER TABLE "Init" ADD COLUMN     "dpopJkt" TEXT;

-- AlterTable
ALTER TABLE "AccessToken" ADD COLUMN     "dpopJkt" TEXT;

-- CreateTable
CREATE TABLE "DpopProof" (
    "id" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "DpopProof_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "DpopProof_expiresAt_idx" ON "DpopProof"("expiresAt");

