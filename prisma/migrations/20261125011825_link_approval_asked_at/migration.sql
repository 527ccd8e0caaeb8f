-- AlterTable
ALTER TABLE "LinkApproval" ADD COLUMN "askedAt" DATETIME;

