import { afterEach, describe, expect, it, vi } from "vitest";
import { eventStream, HEARTBEAT_MS, STREAM_LIFETIME_MS, type EventSource } from "@/lib/api/event-stream";

afterEach(() => {
  vi.useRealTimers();
});

/** A source whose changes never come, as an init nobody decides: what it was closed by is recorded. */
function silentSource(): EventSource & { closed: () => boolean } {
  let closed = false;
  return {
    retryMs: 5000,
    step: async () => ({ event: null, more: true }),
    wait: () => new Promise(() => undefined),
    close: () => void (closed = true),
    closed: () => closed,
  };
}

describe("eventStream", () => {
  // A stream once kept its place in the waiting room until its init expired; now it ends, and the
  // client comes back with Last-Event-ID (tests/api/init/waiting.test.ts) and misses nothing.
  it("ends after STREAM_LIFETIME_MS, heartbeats until then, and lets go of its source and its place", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const source = silentSource();
    let ended = 0;
    const text = new Response(eventStream(source, () => (ended += 1), new AbortController().signal)).text();
    await vi.advanceTimersByTimeAsync(STREAM_LIFETIME_MS - 1);
    expect(ended).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    const heartbeats = STREAM_LIFETIME_MS / HEARTBEAT_MS - 1;
    expect(await text).toBe(`retry: 5000\n\n${": heartbeat\n\n".repeat(heartbeats)}`);
    expect(ended).toBe(1);
    expect(source.closed()).toBe(true);
  });
});
