-- CreateTable
CREATE TABLE "ResourceServerCredential" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "secretHash" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "lastUsedAt" DATETIME,
    "revokedAt" DATETIME,
    CONSTRAINT "ResourceServerCredential_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ResourceServerProject" (
    "credentialId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,

    PRIMARY KEY ("credentialId", "projectId"),
    CONSTRAINT "ResourceServerProject_credentialId_fkey" FOREIGN KEY ("credentialId") REFERENCES "ResourceServerCredential" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ResourceServerProject_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "ResourceServerCredential_userId_idx" ON "ResourceServerCredential"("userId");

-- CreateIndex
CREATE INDEX "ResourceServerProject_projectId_idx" ON "ResourceServerProject"("projectId");

