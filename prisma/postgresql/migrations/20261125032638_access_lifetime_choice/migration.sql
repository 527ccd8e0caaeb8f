-- AlterTable
ALTER TABLE "Init" ADD COLUMN     "accessLifetimeSeconds" INTEGER;

-- AlterTable
ALTER TABLE "ActivityEvent" ADD COLUMN     "accessLifetimeSeconds" INTEGER;

