-- CreateTable
CREATE TABLE "ResourceServerCredential" (
    "id" TEXT NOT NULL,
    "secretHash" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "lastUsedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "ResourceServerCredential_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ResourceServerProject" (
    "credentialId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,

    CONSTRAINT "ResourceServerProject_pkey" PRIMARY KEY ("credentialId","projectId")
);

-- CreateIndex
CREATE INDEX "ResourceServerCredential_userId_idx" ON "ResourceServerCredential"("userId");

-- CreateIndex
CREATE INDEX "ResourceServerProject_projectId_idx" ON "ResourceServerProject"("projectId");

-- AddForeignKey
ALTER TABLE "ResourceServerCredential" ADD CONSTRAINT "ResourceServerCredential_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ResourceServerProject" ADD CONSTRAINT "ResourceServerProject_credentialId_fkey" FOREIGN KEY ("credentialId") REFERENCES "ResourceServerCredential"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ResourceServerProject" ADD CONSTRAINT "ResourceServerProject_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

