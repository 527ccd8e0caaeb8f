-- CreateTable
CREATE TABLE "ProjectKey" (
    "projectId" TEXT NOT NULL PRIMARY KEY,
    "publicKeyPem" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "privateKeySealed" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,
    CONSTRAINT "ProjectKey_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ProjectLink" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "iv" TEXT NOT NULL,
    "accessTokenId" TEXT NOT NULL,
    "userAgent" TEXT,
    "createdAt" DATETIME NOT NULL,
    "lastUsedAt" DATETIME,
    "revokedAt" DATETIME,
    CONSTRAINT "ProjectLink_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ProjectLink_accessTokenId_fkey" FOREIGN KEY ("accessTokenId") REFERENCES "AccessToken" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SigningKey" (
    "kid" TEXT NOT NULL PRIMARY KEY,
    "generation" INTEGER NOT NULL,
    "publicJwk" TEXT NOT NULL,
    "privateKeySealed" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "ProjectLink_accessTokenId_idx" ON "ProjectLink"("accessTokenId");

-- CreateIndex
CREATE UNIQUE INDEX "ProjectLink_projectId_iv_key" ON "ProjectLink"("projectId", "iv");

-- CreateIndex
CREATE UNIQUE INDEX "SigningKey_generation_key" ON "SigningKey"("generation");

