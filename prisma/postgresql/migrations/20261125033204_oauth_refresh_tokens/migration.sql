-- CreateTable
CREATE TABLE "OAuthLogin" (
    "id" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "initId" TEXT,
    "userId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "currentTokenId" TEXT NOT NULL,
    "previousTokenId" TEXT,
    "lastRefreshedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),
    "revokedReason" TEXT,
    "dpopJkt" TEXT,

    CONSTRAINT "OAuthLogin_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RefreshToken" (
    "id" TEXT NOT NULL,
    "loginId" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "accessTokenId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RefreshToken_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "OAuthLogin_userId_idx" ON "OAuthLogin"("userId");

-- CreateIndex
CREATE INDEX "OAuthLogin_expiresAt_idx" ON "OAuthLogin"("expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "RefreshToken_tokenHash_key" ON "RefreshToken"("tokenHash");

-- CreateIndex
CREATE INDEX "RefreshToken_loginId_idx" ON "RefreshToken"("loginId");

-- CreateIndex
CREATE INDEX "RefreshToken_accessTokenId_idx" ON "RefreshToken"("accessTokenId");

-- AddForeignKey
ALTER TABLE "OAuthLogin" ADD CONSTRAINT "OAuthLogin_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OAuthLogin" ADD CONSTRAINT "OAuthLogin_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RefreshToken" ADD CONSTRAINT "RefreshToken_loginId_fkey" FOREIGN KEY ("loginId") REFERENCES "OAuthLogin"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RefreshToken" ADD CONSTRAINT "RefreshToken_accessTokenId_fkey" FOREIGN KEY ("accessTokenId") REFERENCES "AccessToken"("id") ON DELETE CASCADE ON UPDATE CASCADE;

