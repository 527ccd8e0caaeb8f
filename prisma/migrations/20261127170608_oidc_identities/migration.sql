-- AlterTable
ALTER TABLE "ActivityEvent" ADD COLUMN "provider" TEXT;

-- CreateTable
CREATE TABLE "FederatedIdentity" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "issuer" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "email" TEXT,
    "emailVerified" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL,
    "lastUsedAt" DATETIME,
    CONSTRAINT "FederatedIdentity_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "OidcCallback" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "expiresAt" DATETIME NOT NULL
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_User" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "email" TEXT NOT NULL,
    "passwordHash" TEXT,
    "createdAt" DATETIME NOT NULL,
    "shareEmailWithClients" BOOLEAN NOT NULL DEFAULT false
);
INSERT INTO "new_User" ("createdAt", "email", "id", "passwordHash", "shareEmailWithClients") SELECT "createdAt", "email", "id", "passwordHash", "shareEmailWithClients" FROM "User";
DROP TABLE "User";
ALTER TABLE "new_User" RENAME TO "User";
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "FederatedIdentity_issuer_subject_key" ON "FederatedIdentity"("issuer", "subject");

-- CreateIndex
CREATE UNIQUE INDEX "FederatedIdentity_userId_issuer_key" ON "FederatedIdentity"("userId", "issuer");

-- CreateIndex
CREATE INDEX "OidcCallback_expiresAt_idx" ON "OidcCallback"("expiresAt");

