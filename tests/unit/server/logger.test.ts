import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, isoTimestamp, redactSecrets } from "@/server/logger.mjs";

// Every log line is one JSON object; an error carries its stack; no secret reaches the log,
// not even inside an error's message (server/logger.mjs).

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split("\n").filter((line) => line !== ""));
      done();
    },
  });
  return { log: createLogger(stream), lines };
}

function failingOperation(): never {
  throw new Error("the database said no");
}

describe("the logger", () => {
  it("writes an unexpected error as one JSON line with its type, message and stack", () => {
    const { log, lines } = capture();
    try {
      failingOperation();
    } catch (error) {
      log.error({ err: error, request_id: "req-1" }, "unhandled error");
    }
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]);
    expect(line).toMatchObject({ level: "error", msg: "unhandled error", request_id: "req-1", pid: process.pid, err: { type: "Error", message: "the database said no" } });
    expect(line.err.stack).toContain("at failingOperation");
    expect(new Date(line.time).toISOString()).toBe(line.time);
  });

  it("logs a thrown non-Error as its text", () => {
    const { log, lines } = capture();
    log.error({ err: "plain text" }, "odd");
    expect(JSON.parse(lines[0]).err).toEqual({ type: "string", message: "plain text" });
  });

  it("cuts secrets out of an error's message and stack", () => {
    const { log, lines } = capture();
    const secrets = [
      "ilsec_AudKZwucI6wsqZhncOHqAlRHpNFbChlRx9Cx4zXg4jE",
      "ilat_AudKZwucI6wsqZhncOHqAlRHpNFbChlRx9Cx4zXg4jE",
      "eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl",
      "s3cr3t-pa55",
    ];
    log.error({ err: new Error(`failed with ${secrets[0]}, ${secrets[1]}, Bearer ${secrets[2]} at postgresql://initlink:${secrets[3]}@db:5432/initlink`) }, "x");
    for (const secret of secrets) expect(lines[0]).not.toContain(secret);
    expect(JSON.parse(lines[0]).err.message).toBe("failed with [redacted], [redacted], Bearer [redacted] at postgresql://initlink:[redacted]@db:5432/initlink");
  });

  it("leaves text without secrets as it is", () => {
    expect(redactSecrets("init f0hzLD1VaTUHWk7oIoQhpg not found at http://localhost:3000/api/init")).toBe("init f0hzLD1VaTUHWk7oIoQhpg not found at http://localhost:3000/api/init");
  });
});

describe("the log lines' time", () => {
  it("is what toISOString says, to the millisecond, across seconds and a clock set back", () => {
    const start = Date.UTC(2026, 10, 24, 23, 59, 58, 990);
    const times = [0, 1, 9, 10, 99, 100, 999, 1000, 1001, 1010, 1999, 2000, 2500, -1500, 3_600_000, 86_400_000 * 400].map((offset) => start + offset);
    for (const now of times) expect(isoTimestamp(now)).toBe(new Date(now).toISOString());
  });

  it("is on every line, in ISO 8601", () => {
    const { log, lines } = capture();
    const before = Date.now();
    log.info("hello");
    const time = Date.parse(JSON.parse(lines[0]).time);
    expect(time).toBeGreaterThanOrEqual(before);
    expect(time).toBeLessThanOrEqual(Date.now());
  });
});
