-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Init" (
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
    "expiresAt" DATETIME NOT NULL,
    "codeAttempts" INTEGER NOT NULL DEFAULT 0,
    "userCodeShown" BOOLEAN NOT NULL DEFAULT false,
    "decidedAt" DATETIME,
    "projectId" TEXT,
    "approvedById" TEXT,
    "deniedById" TEXT,
    "accessTokenId" TEXT,
    CONSTRAINT "Init_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Init_approvedById_fkey" FOREIGN KEY ("approvedById") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Init_deniedById_fkey" FOREIGN KEY ("deniedById") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Init" ("accessTokenId", "approvedById", "codeAttempts", "createdAt", "decidedAt", "expiresAt", "id", "intervalMs", "observedIp", "observedUserAgent", "projectId", "secretHash", "sender", "senderDevice", "senderIp", "senderOs", "status", "userCode") SELECT "accessTokenId", "approvedById", "codeAttempts", "createdAt", "decidedAt", "expiresAt", "id", "intervalMs", "observedIp", "observedUserAgent", "projectId", "secretHash", "sender", "senderDevice", "senderIp", "senderOs", "status", "userCode" FROM "Init";
DROP TABLE "Init";
ALTER TABLE "new_Init" RENAME TO "Init";
CREATE UNIQUE INDEX "Init_secretHash_key" ON "Init"("secretHash");
CREATE UNIQUE INDEX "Init_accessTokenId_key" ON "Init"("accessTokenId");
CREATE INDEX "Init_expiresAt_idx" ON "Init"("expiresAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

