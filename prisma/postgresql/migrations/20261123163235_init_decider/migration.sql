-- AlterTable
ALTER TABLE "Init" ADD COLUMN     "deniedById" TEXT,
ADD COLUMN     "userCodeShown" BOOLEAN NOT NULL DEFAULT false;

-- AddForeignKey
ALTER TABLE "Init" ADD CONSTRAINT "Init_deniedById_fkey" FOREIGN KEY ("deniedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

