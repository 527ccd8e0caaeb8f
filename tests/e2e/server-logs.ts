import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import path from "node:path";
import type { FullResult, Reporter, TestCase, TestError, TestResult } from "@playwright/test/reporter";
import { prettyLogLine } from "../../server/pretty-log.mjs";

// The end-to-end servers' output (every request line: some 3,000 lines a run) goes to one file a
// server, not to the test output (playwright.config.ts). This reporter prints, under a failing
// test, the lines the servers wrote while it ran (with two workers, another test's lines may be
// among them), and when a server fails to start, the end of its log.

export const SERVER_LOG_DIRECTORY = ".cache/e2e/logs";

/** The file a server on `url` writes its output to. */
export function serverLogFile(url: string): string {
  mkdirSync(SERVER_LOG_DIRECTORY, { recursive: true });
  return path.join(SERVER_LOG_DIRECTORY, `server-${new URL(url).port}.log`);
}

const TAIL_BYTES = 16 * 1024;

function logFiles(): string[] {
  if (!existsSync(SERVER_LOG_DIRECTORY)) return [];
  return readdirSync(SERVER_LOG_DIRECTORY)
    .filter((name) => name.endsWith(".log"))
    .map((name) => path.join(SERVER_LOG_DIRECTORY, name));
}

const sizeOf = (file: string): number => (existsSync(file) ? statSync(file).size : 0);

/** The bytes of `file` from `start` to its current end. */
function readFrom(file: string, start: number): string {
  const end = sizeOf(file);
  if (end <= start) return "";
  const buffer = Buffer.alloc(end - start);
  const fd = openSync(file, "r");
  try {
    readSync(fd, buffer, 0, buffer.length, start);
  } finally {
    closeSync(fd);
  }
  return buffer.toString("utf8");
}

function print(file: string, text: string, what: string) {
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  if (lines.length === 0) return;
  process.stdout.write(`\n--- ${file}: ${what} (${lines.length} lines)\n`);
  for (const line of lines) process.stdout.write(prettyLogLine(line));
}

export default class ServerLogsReporter implements Reporter {
  private readonly startOffsets = new Map<string, Map<string, number>>();

  printsToStdio() {
    return true;
  }

  onTestBegin(test: TestCase) {
    this.startOffsets.set(test.id, new Map(logFiles().map((file) => [file, sizeOf(file)])));
  }

  onTestEnd(test: TestCase, result: TestResult) {
    const offsets = this.startOffsets.get(test.id);
    this.startOffsets.delete(test.id);
    if (result.status === "passed" || result.status === "skipped" || offsets === undefined) return;
    for (const file of logFiles()) print(file, readFrom(file, offsets.get(file) ?? 0), `what the server wrote while "${test.title}" ran`);
  }

  // A server that does not start fails the run before any test: the end of every log.
  onError(error: TestError) {
    if (!/webServer/i.test(error.message ?? "")) return;
    for (const file of logFiles()) print(file, readFrom(file, Math.max(0, sizeOf(file) - TAIL_BYTES)), "its end");
  }

  onEnd(result: FullResult) {
    if (result.status !== "passed") process.stdout.write(`\nThe servers' whole output: ${SERVER_LOG_DIRECTORY}/\n`);
  }
}
