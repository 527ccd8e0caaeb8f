-- CreateTable
CREATE TABLE "RateLimit" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "window" BIGINT NOT NULL,
    "count" INTEGER NOT NULL
);

