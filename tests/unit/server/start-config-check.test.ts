import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

// A bad setting stops npm start before it migrates the database, and server.mjs before it
// forks a worker or says "listening" (server/check-environment.mjs).

const MASTER_KEY = Buffer.alloc(32, 1).toString("base64");

function run(script: string, env: Record<string, string>) {
  const result = spawnSync(process.execPath, [script], { encoding: "utf8", timeout: 120_000, env: { ...process.env, MASTER_KEY, ...env } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The output's log lines (every line is one JSON object). */
const logLines = (stdout: string): { level: string; msg: string }[] =>
  stdout
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));

describe("the configuration is checked first", () => {
  it("npm start refuses an invalid setting with its message and migrates nothing", () => {
    const folder = path.join(mkdtempSync(path.join(tmpdir(), "initlink-start-")), "data");
    const result = run("scripts/start.mjs", { DATABASE_URL: `file:${path.join(folder, "initlink.db")}`, INIT_INTERVAL_MS: "soon" });
    expect(result.status, result.stdout + result.stderr).toBe(1);
    const fatal = logLines(result.stdout).filter((line) => line.level === "fatal");
    expect(fatal.map((line) => line.msg)).toEqual(["Invalid configuration:\n  - INIT_INTERVAL_MS must be a whole number from 100 to 600000"]);
    expect(existsSync(folder)).toBe(false);
    expect(result.stdout).not.toMatch(/listening|migrat/i);
  });

  it("server.mjs with workers refuses an invalid setting before the primary starts or anything listens", () => {
    const result = run("server.mjs", { WEB_CONCURRENCY: "2", PORT: "99999" });
    expect(result.status, result.stdout + result.stderr).toBe(1);
    expect(logLines(result.stdout).find((line) => line.level === "fatal")?.msg).toContain("PORT must be a whole number from 1 to 65535");
    expect(result.stdout).not.toMatch(/starting \d+ workers|listening/);
  });
});
