import { vi } from "vitest";

/**
 * Moves the clock to just after the start of the next fixed window of `windowMs` (the abuse
 * limits' counters), running on with real time: no count resets halfway through a test, and no
 * test sleeps until a window begins. Undo with vi.useRealTimers().
 */
export function startInFreshWindow(windowMs: number): void {
  const next = (Math.floor(Date.now() / windowMs) + 1) * windowMs;
  vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true, now: next + 1000 });
}
