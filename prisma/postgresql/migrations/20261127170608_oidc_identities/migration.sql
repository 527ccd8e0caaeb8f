-- AlterTable
ALTER TABLE "User" ALTER COLUMN "passwordHash" DROP NOT NULL;

-- AlterTable
ALTER TABLE "ActivityEvent" ADD COLUMN     "provider" TEXT;

-- CreateTable
CREATE TABLE "FederatedIdentity" (
    "id" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "email" TEXT,
    "emailVerified" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "lastUsedAt" TIMESTAMP(3),

    CONSTRAINT "FederatedIdentity_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OidcCallback" (
    "id" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OidcCallback_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "FederatedIdentity_issuer_subject_key" ON "FederatedIdentity"("issuer", "subject");

-- CreateIndex
CREATE UNIQUE INDEX "FederatedIdentity_userId_issuer_key" ON "FederatedIdentity"("userId", "issuer");

-- CreateIndex
CREATE INDEX "OidcCallback_expiresAt_idx" ON "OidcCallback"("expiresAt");

-- AddForeignKey
ALTER TABLE "FederatedIdentity" ADD CONSTRAINT "FederatedIdentity_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

