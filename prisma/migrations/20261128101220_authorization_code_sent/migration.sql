-- AlterTable
ALTER TABLE "AuthorizationRequest" ADD COLUMN "codeSentAt" DATETIME;

