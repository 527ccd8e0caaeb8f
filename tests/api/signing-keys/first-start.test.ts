import { describe, expect, it, vi } from "vitest";
import { config } from "@/lib/config";
import { db } from "@/lib/database/db";

// Two instances starting at once on an empty database, one of them with another master key
// (say, each machine made its own development key): whichever loses the race for the first
// signing key must still find out that it cannot open the key that stands.

async function startingProcess() {
  vi.resetModules();
  return import("@/lib/signing-keys/signing-keys");
}

describe("first start of two instances with different master keys", () => {
  it("refuses the one whose master key does not open the signing key the other made", async () => {
    const prisma = await db();
    expect(await prisma.signingKey.count()).toBe(0);
    const right = await startingProcess();
    const wrong = await startingProcess();
    const starts = await Promise.allSettled([
      right.prepareSigningKey(config()),
      wrong.prepareSigningKey({ ...config(), masterKey: Buffer.alloc(32, 9) }),
    ]);
    expect(starts.filter((start) => start.status === "rejected")).toHaveLength(1);
    expect(await prisma.signingKey.count()).toBe(1);
  });
});
