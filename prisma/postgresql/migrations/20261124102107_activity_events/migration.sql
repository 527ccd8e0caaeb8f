-- The account's activity (lib/activity/): events written with the changes they record, kept
-- ACTIVITY_RETENTION_DAYS; one per (account, kind, subject).
-- CreateTable
CREATE TABLE "ActivityEvent" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "subjectId" TEXT NOT NULL,
    "occurredAt" TIMESTAMP(3) NOT NULL,
    "projectId" TEXT,
    "projectName" TEXT,
    "sender" TEXT,
    "senderDevice" TEXT,
    "senderOs" TEXT,
    "senderIp" TEXT,
    "observedIp" TEXT,
    "observedUserAgent" TEXT,
    "tokenName" TEXT,
    "iv" TEXT,
    "decidedBy" TEXT,

    CONSTRAINT "ActivityEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ActivityEvent_userId_occurredAt_idx" ON "ActivityEvent"("userId", "occurredAt");

-- CreateIndex
CREATE INDEX "ActivityEvent_occurredAt_idx" ON "ActivityEvent"("occurredAt");

-- CreateIndex
CREATE UNIQUE INDEX "ActivityEvent_userId_kind_subjectId_key" ON "ActivityEvent"("userId", "kind", "subjectId");

-- AddForeignKey
ALTER TABLE "ActivityEvent" ADD CONSTRAINT "ActivityEvent_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

