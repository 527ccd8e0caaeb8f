// @ts-check
// How npm start and npm test run the tools they need (npm ci, the Prisma CLI, next build) and say
// what they are doing. Node's own modules only: this runs before the dependencies are installed.
import { spawnSync } from "node:child_process";
import { prettyLogLine, stdoutIsTerminal, terminalColour } from "../server/pretty-log.mjs";

/**
 * One line of progress, in the shape of the server's log lines (server/logger.mjs), which
 * cannot be used before pino is installed: JSON, or for a person at a terminal, plain text.
 * @param {string} msg @param {Record<string, unknown>} [fields] @param {"info" | "warn" | "error"} [level]
 */
export function say(msg, fields = {}, level = "info") {
  const json = JSON.stringify({ level, time: new Date().toISOString(), pid: process.pid, ...fields, msg });
  process.stdout.write(stdoutIsTerminal() ? prettyLogLine(json, { colour: terminalColour() }) : `${json}\n`);
}

/**
 * Runs a tool to its end. Quiet: its output is kept, and shown only if it fails, so that a
 * start says one line per phase and a failure still shows everything the tool said.
 * @param {string} command @param {string[]} args
 * @param {{ cwd: string, env?: NodeJS.ProcessEnv, quiet?: boolean }} options
 * @returns {number} the tool's exit status
 */
export function runTool(command, args, { cwd, env = process.env, quiet = true }) {
  const result = spawnSync(command, args, { cwd, env, stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit", maxBuffer: 256 * 1024 * 1024 });
  const status = result.status ?? 1;
  if (quiet && status !== 0) {
    process.stderr.write(result.stdout ?? "");
    process.stderr.write(result.stderr ?? "");
    if (result.error) process.stderr.write(`${result.error.message}\n`);
  }
  return status;
}
