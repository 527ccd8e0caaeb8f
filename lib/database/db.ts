import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { Prisma, PrismaClient } from "../generated/prisma/client";
import { PrismaClient as PostgresqlPrismaClient } from "../generated/prisma-postgresql/client";
import { config, type Config } from "../config";
import { countersFile, databaseProvider, sqliteFilePath } from "./database-url";
import { setUpSqlite } from "./sqlite-setup";
import { processWide } from "../process-wide";

// One data model, two providers: DATABASE_URL picks the client generated for SQLite or for
// PostgreSQL. Both are generated from the same models and have the same model API, so the rest
// of lib/ sees the SQLite client's type. Transactions are left out but for inOneTransaction
// below: on SQLite they share the adapter's one connection with other requests.
export type Database = Omit<PrismaClient, "$transaction">;

// Opened on first use, never at import: `next build` evaluates route modules. Once per process,
// whichever bundle of lib/ asks (lib/process-wide.ts): one client, one pool.
const opened = processWide("database", () => ({ ready: undefined as Promise<PrismaClient> | undefined, pool: undefined as pg.Pool | undefined }));

// WAL (lib/database/sqlite-setup.ts) lets readers run beside the writer. synchronous=FULL (the default)
// makes every acknowledged commit survive a process crash and a power loss; NORMAL survives a
// process crash but may lose the last commits to a power loss, for more writes per second.
//
// The counters, the poll clock (lib/init/poll-interval.ts) and the rate limits
// (lib/limits/rate-limit.ts), are in a side file next to the database: WAL with
// synchronous=NORMAL, set for that file alone, so an accepted poll or a counted request commits
// without an fsync while every other write keeps SQLITE_SYNCHRONOUS. Losing their last commits
// to a power cut lets at most a few requests through early, so they are not worth a flush each;
// their tables are made by lib/database/sqlite-setup.ts, not by a migration. Create Init was two flushes
// (its counter, its row), now one.
async function openSqlite(cfg: Config): Promise<PrismaClient> {
  const file = sqliteFilePath(cfg.databaseUrl);
  await setUpSqlite(file);
  const client = new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: file, timeout: 5000 }) });
  await client.$queryRawUnsafe(`PRAGMA synchronous = ${cfg.sqliteSynchronous}`);
  await client.$queryRawUnsafe("PRAGMA foreign_keys = ON");
  await client.$executeRawUnsafe("ATTACH DATABASE ? AS counters", countersFile(file));
  await client.$queryRawUnsafe("PRAGMA counters.synchronous = NORMAL");
  return client;
}

/**
 * The process's one PostgreSQL pool, Prisma's and the hot paths' own statements' (lib/database/direct-sql.ts):
 * instances × workers × (DATABASE_POOL_SIZE + 1 for the change notices' LISTEN) must stay under
 * the server's max_connections (or the pooler's limit).
 */
export function postgresqlPool(cfg: Config): pg.Pool {
  opened.pool ??= new pg.Pool({ connectionString: cfg.databaseUrl, max: cfg.databasePoolSize, connectionTimeoutMillis: 5000 });
  return opened.pool;
}

function openPostgresql(cfg: Config): PrismaClient {
  const adapter = new PrismaPg(postgresqlPool(cfg));
  // TypeScript cannot compare the two clients' generic model types across modules; they are
  // the same at run time, which the whole API suite checks on both providers.
  return new PostgresqlPrismaClient({ adapter }) as unknown as PrismaClient;
}

function client(): Promise<PrismaClient> {
  const cfg = config();
  if (opened.ready === undefined) {
    const ready = databaseProvider(cfg.databaseUrl) === "postgresql" ? Promise.resolve(openPostgresql(cfg)) : openSqlite(cfg);
    opened.ready = ready;
    // A failed open (the file busy, say) is tried again on the next request, not kept.
    ready.catch(() => {
      if (opened.ready === ready) opened.ready = undefined;
    });
  }
  return opened.ready;
}

export function db(): Promise<Database> {
  return client();
}

/**
 * Runs a change and the statement that records it (lib/activity/) in one transaction: both
 * commit or neither. On SQLite it shares the adapter's one connection with other requests;
 * their statements do not run inside it (tests/api/database/transactions.test.ts). Keep to statements
 * that do not fail in the normal course (conditional updates, inserts that skip conflicts).
 */
export async function inOneTransaction<A, B>(change: Prisma.PrismaPromise<A>, record: Prisma.PrismaPromise<B>): Promise<[A, B]> {
  return (await client()).$transaction([change, record]);
}

/** inOneTransaction for a change of two statements and the statement that records it. */
export async function inOneTransactionOfThree<A, B, C>(change: Prisma.PrismaPromise<A>, follow: Prisma.PrismaPromise<B>, record: Prisma.PrismaPromise<C>): Promise<[A, B, C]> {
  return (await client()).$transaction([change, follow, record]);
}

/**
 * True for a write rejected by a unique constraint (Prisma's P2002). Both generated clients
 * throw the error class of the one shared runtime (@prisma/client/runtime), so this holds on
 * either provider.
 */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}

/** True for a write whose referenced row is gone (Prisma's P2003), on either provider. */
export function isForeignKeyViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2003";
}

/**
 * Like inOneTransaction, for a change made of several statements (a new password and the
 * sessions it ends) and its record: all commit or none. Each should hold its own precondition.
 */
export async function statementsInOneTransaction<P extends Prisma.PrismaPromise<unknown>[]>(statements: [...P]) {
  return (await client()).$transaction(statements);
}
