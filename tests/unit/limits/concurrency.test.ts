import { describe, expect, it } from "vitest";
import { concurrencyLimit } from "@/lib/limits/concurrency";

// Password hashes are memory-hard (128 MiB each): a process runs only so many at once.

/** A task that runs until released, recording when it starts. */
function gatedTask(started: number[], index: number) {
  let release: (() => void) | undefined;
  let fail: ((error: Error) => void) | undefined;
  const done = new Promise<number>((resolve, reject) => {
    release = () => resolve(index);
    fail = reject;
  });
  return {
    task: () => {
      started.push(index);
      return done;
    },
    release: () => release?.(),
    fail: (error: Error) => fail?.(error),
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("concurrencyLimit", () => {
  it("runs at most the limit at once, the rest in the order they came, and a failed task frees its place", async () => {
    const run = concurrencyLimit(2);
    const started: number[] = [];
    const tasks = Array.from({ length: 5 }, (_, i) => gatedTask(started, i));
    const results = tasks.map(({ task }) => run(task));
    await settle();
    expect(started).toEqual([0, 1]);

    tasks[1].fail(new Error("hash failed"));
    await expect(results[1]).rejects.toThrow("hash failed");
    await settle();
    expect(started).toEqual([0, 1, 2]);

    tasks[0].release();
    tasks[2].release();
    await settle();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    tasks[3].release();
    tasks[4].release();
    expect(await Promise.all([results[0], results[2], results[3], results[4]])).toEqual([0, 2, 3, 4]);

    // Every place is free again: two new tasks start at once.
    const again = [gatedTask(started, 5), gatedTask(started, 6)];
    const more = again.map(({ task }) => run(task));
    await settle();
    expect(started.slice(5)).toEqual([5, 6]);
    again.forEach(({ release }) => release());
    expect(await Promise.all(more)).toEqual([5, 6]);
  });
});
