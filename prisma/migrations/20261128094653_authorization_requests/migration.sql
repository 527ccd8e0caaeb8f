-- CreateTable
CREATE TABLE "AuthorizationRequest" (
    "initId" TEXT NOT NULL PRIMARY KEY,
    "redirectUri" TEXT NOT NULL,
    "state" TEXT,
    "codeChallenge" TEXT NOT NULL,
    "codeHash" TEXT,
    "sealedCode" TEXT,
    "codeExpiresAt" DATETIME,
    "codeUsedAt" DATETIME,
    "codeReplayedAt" DATETIME,
    CONSTRAINT "AuthorizationRequest_initId_fkey" FOREIGN KEY ("initId") REFERENCES "Init" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "AuthorizationRequest_codeHash_key" ON "AuthorizationRequest"("codeHash");

