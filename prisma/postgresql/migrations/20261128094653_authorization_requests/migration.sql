-- CreateTable
CREATE TABLE "AuthorizationRequest" (
    "initId" TEXT NOT NULL,
    "redirectUri" TEXT NOT NULL,
    "state" TEXT,
    "codeChallenge" TEXT NOT NULL,
    "codeHash" TEXT,
    "sealedCode" TEXT,
    "codeExpiresAt" TIMESTAMP(3),
    "codeUsedAt" TIMESTAMP(3),
    "codeReplayedAt" TIMESTAMP(3),

    CONSTRAINT "AuthorizationRequest_pkey" PRIMARY KEY ("initId")
);

-- CreateIndex
CREATE UNIQUE INDEX "AuthorizationRequest_codeHash_key" ON "AuthorizationRequest"("codeHash");

-- AddForeignKey
ALTER TABLE "AuthorizationRequest" ADD CONSTRAINT "AuthorizationRequest_initId_fkey" FOREIGN KEY ("initId") REFERENCES "Init"("id") ON DELETE CASCADE ON UPDATE CASCADE;

