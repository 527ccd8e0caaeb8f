-- AlterTable
ALTER TABLE "SigningKey" ADD COLUMN "signedUntil" DATETIME;


-- Keys from before this column may have signed bearers of any lifetime up to the longest
-- LINK_LIFETIME_DAYS allows (365): they stay published that long.
UPDATE "SigningKey" SET "signedUntil" = strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now', '+365 days');
