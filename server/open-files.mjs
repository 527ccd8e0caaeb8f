// @ts-check
// Every waiting client holds a socket, and a socket is an open file: a process whose open-file
// limit is below WAITING_PER_PROCESS refuses connections (EMFILE) before its waiting room is
// full. Node cannot call setrlimit(2), so the soft limit is raised to the hard one by prlimit(1)
// (util-linux) on this process before the workers are forked (they inherit it); past the hard
// limit only the system's administrator can go (docs/deploying.md).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

/** Files a process keeps open besides its waiting clients: the database, logs, other requests. */
export const OPEN_FILES_BESIDES_WAITING = 1024;

/** @param {string} value */
const limitOf = (value) => (value === "unlimited" ? Infinity : Number(value));

/** This process's open-file limits (Linux: /proc/self/limits), or null where they cannot be read. */
export function openFileLimits() {
  try {
    const line = readFileSync("/proc/self/limits", "utf8")
      .split("\n")
      .find((each) => each.startsWith("Max open files"));
    if (line === undefined) return null;
    const [soft, hard] = line.slice("Max open files".length).trim().split(/\s+/);
    return { soft: limitOf(soft), hard: limitOf(hard) };
  } catch {
    return null;
  }
}

/** Raises the soft open-file limit to the hard one where it is lower; the limits after. */
export function raiseOpenFileLimit() {
  const limits = openFileLimits();
  if (limits === null || limits.soft >= limits.hard) return limits;
  const hard = limits.hard === Infinity ? "unlimited" : String(limits.hard);
  try {
    execFileSync("prlimit", [`--pid=${process.pid}`, `--nofile=${hard}:${hard}`], { stdio: "ignore" });
  } catch {
    // No prlimit here: the warning at start says how to raise the limit.
  }
  return openFileLimits();
}
