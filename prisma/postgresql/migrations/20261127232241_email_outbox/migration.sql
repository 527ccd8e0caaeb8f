-- AlterTable
ALTER TABLE "User" ADD COLUMN     "emailVerifiedAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "EmailLink" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "useId" TEXT,
    "voidedAt" TIMESTAMP(3),

    CONSTRAINT "EmailLink_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OutboxEmail" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "to" TEXT NOT NULL,
    "sealedToken" TEXT,
    "emailLinkId" TEXT,
    "activityEventId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL,
    "claimedUntil" TIMESTAMP(3),
    "outcome" TEXT,
    "endedAt" TIMESTAMP(3),
    "lastError" TEXT,

    CONSTRAINT "OutboxEmail_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "EmailLink_tokenHash_key" ON "EmailLink"("tokenHash");

-- CreateIndex
CREATE INDEX "EmailLink_userId_purpose_idx" ON "EmailLink"("userId", "purpose");

-- CreateIndex
CREATE INDEX "EmailLink_expiresAt_idx" ON "EmailLink"("expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "OutboxEmail_activityEventId_key" ON "OutboxEmail"("activityEventId");

-- CreateIndex
CREATE INDEX "OutboxEmail_outcome_nextAttemptAt_idx" ON "OutboxEmail"("outcome", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "OutboxEmail_endedAt_idx" ON "OutboxEmail"("endedAt");

-- CreateIndex
CREATE INDEX "OutboxEmail_userId_idx" ON "OutboxEmail"("userId");

-- AddForeignKey
ALTER TABLE "EmailLink" ADD CONSTRAINT "EmailLink_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OutboxEmail" ADD CONSTRAINT "OutboxEmail_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- An account made by the identity provider whose email the provider said was verified is
-- confirmed from the start, as new ones are (lib/identity/accounts.ts).
UPDATE "User" SET "emailVerifiedAt" = "createdAt"
WHERE EXISTS (SELECT 1 FROM "FederatedIdentity" f WHERE f."userId" = "User"."id" AND f."emailVerified" AND f."email" = "User"."email");
