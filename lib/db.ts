import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { Prisma, PrismaClient } from "./generated/prisma/client";
import { config } from "./config";
import { ensureSqliteDirectory, sqliteFilePath } from "./database-url";

// Opened on first use, never at import: `next build` evaluates route modules.
let ready: Promise<PrismaClient> | undefined;

async function open(): Promise<PrismaClient> {
  const cfg = config();
  const file = sqliteFilePath(cfg.databaseUrl);
  ensureSqliteDirectory(file);
  const client = new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: file, timeout: 5000 }) });
  // WAL lets readers run beside the writer. synchronous=FULL (the default) makes every
  // acknowledged commit survive a process crash and a power loss; NORMAL survives a process
  // crash but may lose the last commits to a power loss, for more writes per second.
  await client.$queryRawUnsafe("PRAGMA journal_mode = WAL");
  await client.$queryRawUnsafe(`PRAGMA synchronous = ${cfg.sqliteSynchronous}`);
  await client.$queryRawUnsafe("PRAGMA foreign_keys = ON");
  return client;
}

export function db(): Promise<PrismaClient> {
  ready ??= open();
  return ready;
}


/** True for a write rejected by a unique constraint (Prisma's P2002). */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}
