-- AlterTable
ALTER TABLE "AuthorizationRequest" ADD COLUMN     "codeSentAt" TIMESTAMP(3);

