import { describe, expect, it } from "vitest";
import { db } from "@/lib/database/db";
import { createdInit } from "../../helpers/api";
import { deny, newAccount } from "../../helpers/forms";
import { changedTables, databaseFingerprint, forgetRowDigests } from "../../helpers/hostile";

// The hostile suites trust the fingerprint to see every write: it keeps each row's digest and
// reads a row again only when the write log names it (tests/helpers/hostile/fingerprint.ts).
describe("the database fingerprint", () => {
  it("sees a row added, changed, changed back and deleted, through Prisma's own connection", async () => {
    const prisma = await db();
    const start = await databaseFingerprint();
    const init = await createdInit();
    const added = await databaseFingerprint();
    // Creating an init also counts against the address's rate limit.
    expect(changedTables(start, added, ["RateLimit"])).toEqual(["Init"]);
    const { sender } = await prisma.init.findUniqueOrThrow({ where: { id: init.id }, select: { sender: true } });
    await prisma.init.update({ where: { id: init.id }, data: { sender: `${sender}!` } });
    const changed = await databaseFingerprint();
    expect(changedTables(added, changed)).toEqual(["Init"]);
    await prisma.init.update({ where: { id: init.id }, data: { sender } });
    expect(await databaseFingerprint()).toEqual(added);
    await prisma.init.delete({ where: { id: init.id } });
    expect(changedTables(start, await databaseFingerprint(), ["RateLimit"])).toEqual([]);
  });

  it("matches a full read of the tables, whatever order the rows were written in", async () => {
    await databaseFingerprint();
    const first = await createdInit();
    const second = await createdInit();
    const person = await newAccount();
    await deny(first.id, person.token);
    const prisma = await db();
    const rows = await prisma.init.findMany({ where: { id: { in: [first.id, second.id] } } });
    await prisma.init.deleteMany({ where: { id: { in: [first.id, second.id] } } });
    await prisma.init.createMany({ data: rows.reverse() });
    // Kept up to date from the write log, then read in full: the same, for every table.
    const kept = await databaseFingerprint();
    forgetRowDigests();
    expect(await databaseFingerprint()).toEqual(kept);
  });
});
