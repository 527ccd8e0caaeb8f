-- AlterTable
ALTER TABLE "AccessToken" ADD COLUMN     "prefix" TEXT;

