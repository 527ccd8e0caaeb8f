-- AlterTable
ALTER TABLE "LinkApproval" ADD COLUMN     "askedAt" TIMESTAMP(3);

