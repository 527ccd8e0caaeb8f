-- AlterTable
ALTER TABLE "Init" ADD COLUMN     "bindingMessage" TEXT;

