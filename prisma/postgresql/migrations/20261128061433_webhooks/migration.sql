-- AlterTable
ALTER TABLE "ActivityEvent" ADD COLUMN     "memberId" TEXT;

-- CreateTable
CREATE TABLE "WebhookEndpoint" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "teamId" TEXT,
    "url" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "sealedSecret" TEXT NOT NULL,
    "previousSealedSecret" TEXT,
    "previousSecretUntil" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL,
    "disabledAt" TIMESTAMP(3),
    "disabledReason" TEXT,
    "failingSince" TIMESTAMP(3),

    CONSTRAINT "WebhookEndpoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookSubscription" (
    "endpointId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,

    CONSTRAINT "WebhookSubscription_pkey" PRIMARY KEY ("endpointId","kind")
);

-- CreateTable
CREATE TABLE "WebhookMessage" (
    "id" TEXT NOT NULL,
    "endpointId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "activityEventId" TEXT,
    "occurredAt" TIMESTAMP(3) NOT NULL,
    "data" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL,
    "claimedUntil" TIMESTAMP(3),
    "outcome" TEXT,
    "endedAt" TIMESTAMP(3),

    CONSTRAINT "WebhookMessage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookAttempt" (
    "id" TEXT NOT NULL,
    "messageId" TEXT NOT NULL,
    "endpointId" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "durationMs" INTEGER NOT NULL,
    "statusCode" INTEGER,
    "error" TEXT,
    "responseBody" TEXT,

    CONSTRAINT "WebhookAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WebhookEndpoint_userId_idx" ON "WebhookEndpoint"("userId");

-- CreateIndex
CREATE INDEX "WebhookEndpoint_teamId_idx" ON "WebhookEndpoint"("teamId");

-- CreateIndex
CREATE INDEX "WebhookSubscription_kind_idx" ON "WebhookSubscription"("kind");

-- CreateIndex
CREATE INDEX "WebhookMessage_outcome_nextAttemptAt_idx" ON "WebhookMessage"("outcome", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "WebhookMessage_endpointId_createdAt_idx" ON "WebhookMessage"("endpointId", "createdAt");

-- CreateIndex
CREATE INDEX "WebhookMessage_endedAt_idx" ON "WebhookMessage"("endedAt");

-- CreateIndex
CREATE INDEX "WebhookAttempt_endpointId_startedAt_idx" ON "WebhookAttempt"("endpointId", "startedAt");

-- CreateIndex
CREATE INDEX "WebhookAttempt_messageId_idx" ON "WebhookAttempt"("messageId");

-- AddForeignKey
ALTER TABLE "WebhookEndpoint" ADD CONSTRAINT "WebhookEndpoint_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookEndpoint" ADD CONSTRAINT "WebhookEndpoint_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookSubscription" ADD CONSTRAINT "WebhookSubscription_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "WebhookEndpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookMessage" ADD CONSTRAINT "WebhookMessage_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "WebhookEndpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookAttempt" ADD CONSTRAINT "WebhookAttempt_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "WebhookMessage"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Every activity event of a kind an enabled endpoint subscribes to puts a message in the outbox
-- (lib/events/), in the same transaction: for a team's project or a team's event, to the team's
-- endpoints; otherwise to the acting account's own. The fields copied are those of
-- lib/events/event-body.ts.
CREATE FUNCTION "ActivityEvent_webhooks"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO "WebhookMessage" ("id", "endpointId", "kind", "activityEventId", "occurredAt", "data", "createdAt", "nextAttemptAt")
    SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), e."id", NEW."kind", NEW."id", NEW."occurredAt", json_build_object('event_id', NEW."id", 'kind', NEW."kind", 'account_id', NEW."userId", 'subject_id', NEW."subjectId", 'project_id', NEW."projectId", 'project_name', NEW."projectName", 'team_id', COALESCE(NEW."teamId", (SELECT p."teamId" FROM "Project" p WHERE p."id" = NEW."projectId")), 'team_name', COALESCE(NEW."teamName", (SELECT t."name" FROM "Team" t WHERE t."id" = COALESCE(NEW."teamId", (SELECT p."teamId" FROM "Project" p WHERE p."id" = NEW."projectId")))), 'sender', NEW."sender", 'sender_device', NEW."senderDevice", 'sender_os', NEW."senderOs", 'sender_ip', NEW."senderIp", 'observed_ip', NEW."observedIp", 'token_name', NEW."tokenName", 'iv', NEW."iv", 'decided_by', NEW."decidedBy", 'member_email', NEW."memberEmail", 'member_id', NEW."memberId", 'role', NEW."role", 'access_lifetime_seconds', NEW."accessLifetimeSeconds"), NEW."occurredAt", NEW."occurredAt"
    FROM "WebhookEndpoint" e JOIN "WebhookSubscription" s ON s."endpointId" = e."id" AND s."kind" = NEW."kind"
    WHERE e."disabledAt" IS NULL
      AND (e."teamId" = COALESCE(NEW."teamId", (SELECT p."teamId" FROM "Project" p WHERE p."id" = NEW."projectId"))
        OR (e."teamId" IS NULL AND e."userId" = NEW."userId" AND COALESCE(NEW."teamId", (SELECT p."teamId" FROM "Project" p WHERE p."id" = NEW."projectId")) IS NULL));
    RETURN NULL;
END;
$$;

CREATE TRIGGER "ActivityEvent_webhooks" AFTER INSERT ON "ActivityEvent"
    FOR EACH ROW EXECUTE FUNCTION "ActivityEvent_webhooks"();
