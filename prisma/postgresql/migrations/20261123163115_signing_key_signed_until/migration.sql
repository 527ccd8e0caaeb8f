-- AlterTable
ALTER TABLE "SigningKey" ADD COLUMN     "signedUntil" TIMESTAMP(3);


-- Keys from before this column may have signed bearers of any lifetime up to the longest
-- LINK_LIFETIME_DAYS allows (365): they stay published that long.
UPDATE "SigningKey" SET "signedUntil" = CURRENT_TIMESTAMP + INTERVAL '365 days';
