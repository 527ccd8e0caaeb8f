-- AlterTable
ALTER TABLE "OAuthLogin" ADD COLUMN "lastRefreshedBy" TEXT;

