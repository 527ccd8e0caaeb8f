-- CreateTable
CREATE TABLE "Init" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userCode" TEXT NOT NULL,
    "secretHash" TEXT NOT NULL,
    "sender" TEXT NOT NULL,
    "senderDevice" TEXT,
    "senderOs" TEXT,
    "senderIp" TEXT,
    "observedIp" TEXT,
    "observedUserAgent" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "intervalMs" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "expiresAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "InitPoll" (
    "initId" TEXT NOT NULL,
    "pollerKey" TEXT NOT NULL,
    "lastPolledAt" DATETIME NOT NULL,

    PRIMARY KEY ("initId", "pollerKey"),
    CONSTRAINT "InitPoll_initId_fkey" FOREIGN KEY ("initId") REFERENCES "Init" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "Init_secretHash_key" ON "Init"("secretHash");

-- CreateIndex
CREATE INDEX "Init_expiresAt_idx" ON "Init"("expiresAt");

