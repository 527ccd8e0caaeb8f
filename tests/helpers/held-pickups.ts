import { vi } from "vitest";
import { waitingOn } from "@/lib/init/init-events";
import { pollClocks } from "./api";
import { dispatch } from "./in-process";

// Concurrent token pickups: the poll clock admits the secret's holder once per
// interval, so pickups only run side by side when held requests (Prefer: wait) are all ended
// by one approval. Each is admitted an interval after the one before, on a faked Date, and the
// clock's own record says when it was admitted; no timing is assumed.

/** Resolves once `check` holds; vi.waitFor would move the faked clock on each look. */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (let look = 0; !(await check()); look++) {
    if (look === 500) throw new Error("gave up waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * `count` pickups of `init` held at once, then `decide` (the approval) ends them all; their
 * answers. `signal` ends any still held when the test ends. Restores the real Date.
 */
export async function heldPickupsEndedAtOnce(init: { id: string; secret: string; interval: number }, count: number, decide: () => Promise<unknown>, signal: AbortSignal): Promise<Response[]> {
  vi.useFakeTimers({ toFake: ["Date"] });
  try {
    const start = Date.now();
    const held: Promise<Response>[] = [];
    for (let nth = 0; nth < count; nth++) {
      const admittedAt = start + nth * init.interval;
      vi.setSystemTime(admittedAt);
      held.push(
        dispatch("GET", `/api/init/${encodeURIComponent(init.id)}`, {
          headers: { "user-agent": "acme-cli/1.0", prefer: "wait=60", authorization: `Bearer ${init.secret}` },
          signal,
        }),
      );
      await until(async () => (await pollClocks(init.id)).some((clock) => clock.poller === "secret_holder" && clock.lastPolledAt === admittedAt));
    }
    await until(async () => waitingOn(init.id) === count);
    await decide();
    return await Promise.all(held);
  } finally {
    vi.useRealTimers();
  }
}
