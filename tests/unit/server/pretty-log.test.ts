import { describe, expect, it } from "vitest";
import { prettyLogLine } from "@/server/pretty-log.mjs";

// At a terminal, log lines are printed for a person (server/pretty-log.mjs); elsewhere they stay JSON.

const at = (hours: number, minutes: number, seconds: number) => new Date(2026, 10, 24, hours, minutes, seconds).toISOString();

describe("a log line for a person", () => {
  it("reads as local time, level, message and the other fields, without pid or a field the message quotes", () => {
    const json = JSON.stringify({ level: "info", time: at(10, 37, 19), pid: 4242, url: "http://localhost:3000", workers: 2, msg: "ready: open http://localhost:3000" });
    expect(prettyLogLine(json)).toBe("10:37:19 info  ready: open http://localhost:3000 workers=2\n");
  });

  it("quotes a field with spaces and writes an object as JSON", () => {
    const json = JSON.stringify({ level: "warn", time: at(8, 0, 1), database: "SQLite data/initlink.db", migrations: ["a", "b"], msg: "migrating" });
    expect(prettyLogLine(json)).toBe('08:00:01 warn  migrating database="SQLite data/initlink.db" migrations=["a","b"]\n');
  });

  it("puts an error's stack below the line, indented", () => {
    const json = JSON.stringify({ level: "error", time: at(9, 5, 0), err: { type: "Error", message: "no", stack: "Error: no\n    at here" }, msg: "unhandled error" });
    expect(prettyLogLine(json)).toBe("09:05:00 error unhandled error\n  Error: no\n      at here\n");
  });

  it("colours the level only when asked", () => {
    const json = JSON.stringify({ level: "error", time: at(9, 5, 0), msg: "x" });
    expect(prettyLogLine(json, { colour: true })).toBe("09:05:00 \u001b[31merror\u001b[39m x\n");
  });

  it("passes through a line that is not a JSON object", () => {
    expect(prettyLogLine("plain text")).toBe("plain text\n");
    expect(prettyLogLine("[1,2]")).toBe("[1,2]\n");
  });
});
