-- CreateTable
CREATE TABLE "ProjectAlias" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,
    CONSTRAINT "ProjectAlias_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "LinkApproval" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "iv" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "observedIp" TEXT,
    "observedUserAgent" TEXT,
    "approvedById" TEXT,
    "createdAt" DATETIME NOT NULL,
    "decidedAt" DATETIME,
    "expiresAt" DATETIME NOT NULL,
    CONSTRAINT "LinkApproval_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "LinkApproval_approvedById_fkey" FOREIGN KEY ("approvedById") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "ProjectAlias_projectId_idx" ON "ProjectAlias"("projectId");

-- CreateIndex
CREATE INDEX "LinkApproval_expiresAt_idx" ON "LinkApproval"("expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "LinkApproval_projectId_iv_key" ON "LinkApproval"("projectId", "iv");

