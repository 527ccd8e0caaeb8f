import { describe, expect, it } from "vitest";
import { db, inOneTransaction } from "@/lib/database/db";
import { randomId } from "@/lib/secrets";

// A transaction (inOneTransaction, lib/database/db.ts) holds only its own statements. On SQLite Prisma's
// adapter runs everything on one connection, so this is the property to guard: a statement of
// another request issued around a transaction must not run inside it (answered before it
// commits, undone if it rolls back). Writes issued at every step before and after the
// transaction starts, raw ones included, all stay.
describe("a transaction beside other requests' statements", () => {
  it("never takes them in: a write made meanwhile stays when the transaction rolls back", async () => {
    const prisma = await db();
    const inTransaction = randomId();
    const beside = Array.from({ length: 300 }, () => randomId());
    const user = (id: string) => prisma.user.create({ data: { id, email: `${id.toLowerCase()}@example.test`, passwordHash: "x", createdAt: new Date() } });
    // Other requests' writes, issued at every step before and after the transaction starts.
    const writes: Promise<unknown>[] = [];
    let transaction: Promise<string> = Promise.resolve("not started");
    for (const [index, id] of beside.entries()) {
      if (index === beside.length / 2) {
        transaction = inOneTransaction(user(inTransaction), prisma.$executeRaw`INSERT INTO "NoSuchTable" ("id") VALUES (1)`).then(
          () => "committed",
          () => "rolled back",
        );
      }
      writes.push(prisma.$executeRaw`INSERT INTO "User" ("id", "email", "passwordHash", "createdAt") VALUES (${id}, ${`${id.toLowerCase()}@example.test`}, 'x', ${new Date().toISOString()})`);
      await Promise.resolve();
    }
    const results = await Promise.allSettled([transaction, ...writes]);
    expect(results[0]).toEqual({ status: "fulfilled", value: "rolled back" });
    expect(results.slice(1).map((result) => result.status)).toEqual(beside.map(() => "fulfilled"));
    expect(await prisma.user.count({ where: { id: inTransaction } })).toBe(0);
    expect(await prisma.user.count({ where: { id: { in: beside } } })).toBe(beside.length);
  });
});
