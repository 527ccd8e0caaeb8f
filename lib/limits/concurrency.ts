// At most `limit` of the tasks handed to `run` execute at once in this process; the others wait
// their turn, first come first served. A finished task hands its place straight to the next.

export type ConcurrencyLimit = <T>(task: () => Promise<T>) => Promise<T>;

export function concurrencyLimit(limit: number): ConcurrencyLimit {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (running < limit) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next === undefined) running--;
      else next();
    }
  };
}
