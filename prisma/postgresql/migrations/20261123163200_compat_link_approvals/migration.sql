-- CreateTable
CREATE TABLE "ProjectAlias" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ProjectAlias_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LinkApproval" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "iv" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "observedIp" TEXT,
    "observedUserAgent" TEXT,
    "approvedById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "decidedAt" TIMESTAMP(3),
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "LinkApproval_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ProjectAlias_projectId_idx" ON "ProjectAlias"("projectId");

-- CreateIndex
CREATE INDEX "LinkApproval_expiresAt_idx" ON "LinkApproval"("expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "LinkApproval_projectId_iv_key" ON "LinkApproval"("projectId", "iv");

-- AddForeignKey
ALTER TABLE "ProjectAlias" ADD CONSTRAINT "ProjectAlias_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LinkApproval" ADD CONSTRAINT "LinkApproval_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LinkApproval" ADD CONSTRAINT "LinkApproval_approvedById_fkey" FOREIGN KEY ("approvedById") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

