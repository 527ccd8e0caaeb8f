// @ts-check
// The one structured logger of every process: npm start's phases, the primary, the workers,
// server.mjs's request line and the app's own lines (lib/). pino, one JSON object a line on
// stdout: `level` as a word, `time` in ISO 8601, `pid`, `msg`, and for an error `err` with its
// type, message and stack, from which anything shaped like one of our secrets is cut. When stdout
// is a terminal the same lines are printed for a person instead (server/pretty-log.mjs).
import { format } from "node:util";
import pino from "pino";
import { prettyLogLine, stdoutIsTerminal, terminalColour } from "./pretty-log.mjs";
import { processWide } from "./process-wide.mjs";

// The secrets the service hands out or reads (docs/api.md, Token formats), URL credentials, and
// JWTs: an error's message or stack quoting one must not carry it into the log.
const SECRET_PATTERNS = [
  /\bil(?:sec|at)_[A-Za-z0-9_-]+/g,
  /\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g,
  /(?<=\/\/[^/@\s:]*:)[^/@\s]+(?=@)/g,
];

/** `text` with every secret-shaped part replaced by `[redacted]`. @param {string} text */
export function redactSecrets(text) {
  return SECRET_PATTERNS.reduce((redacted, pattern) => redacted.replace(pattern, "[redacted]"), text);
}

/**
 * What a log line says of an error: its type, message, stack and code (a Prisma or Node error
 * code), secrets cut out. A thrown non-Error is logged as its text.
 * @param {unknown} error
 */
function errorFields(error) {
  if (!(error instanceof Error)) return { type: typeof error, message: redactSecrets(String(error)) };
  const code = /** @type {{ code?: unknown }} */ (error).code;
  return {
    type: error.constructor.name,
    message: redactSecrets(error.message),
    stack: redactSecrets(error.stack ?? ""),
    ...(typeof code === "string" || typeof code === "number" ? { code } : {}),
  };
}

// pino's isoTime formats a new Date for every line: under load, half of the request line's cost.
// Everything up to the milliseconds changes once a second, so it is formatted once a second.
let formattedSecond = Number.NaN;
let secondPrefix = "";

/** `new Date(now).toISOString()`, from the second's formatted prefix. @param {number} now epoch ms */
export function isoTimestamp(now) {
  const second = Math.floor(now / 1000);
  if (second !== formattedSecond) {
    formattedSecond = second;
    secondPrefix = new Date(second * 1000).toISOString().slice(0, -4);
  }
  return `${secondPrefix}${String(now - second * 1000).padStart(3, "0")}Z`;
}

/** @param {pino.DestinationStream} destination */
export function createLogger(destination) {
  return pino(
    {
      base: { pid: process.pid },
      timestamp: () => `,"time":"${isoTimestamp(Date.now())}"`,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: errorFields },
    },
    destination,
  );
}

/**
 * Writes each JSON line as a line for a person (a terminal's log: no buffer needed).
 * @param {{ colour: boolean }} options
 * @returns {pino.DestinationStream}
 */
export function prettyDestination({ colour }) {
  return {
    write(chunk) {
      for (const line of chunk.split("\n")) if (line !== "") process.stdout.write(prettyLogLine(line, { colour }));
    },
  };
}

/**
 * The process's logger. It writes from a buffer when stdout is free rather than once per line
 * (the request line is on every request), and pino flushes the buffer when the process exits.
 * At a terminal it prints readable lines instead of JSON.
 * @returns {pino.Logger}
 */
export function logger() {
  // Every bundle of lib/ and server.mjs write through one buffer.
  return processWide("logger", () => createLogger(stdoutIsTerminal() ? prettyDestination({ colour: terminalColour() }) : pino.destination({ sync: false })));
}

/**
 * Sends what Next.js and libraries print with console.log/warn/error through the logger, so
 * that every line of a server's output is JSON; an Error among the arguments becomes `err`.
 */
export function routeConsoleToLogger() {
  const log = logger();
  /** @param {"info" | "warn" | "error"} level */
  const forward = (level) => (/** @type {unknown[]} */ ...args) => {
    const error = args.find((arg) => arg instanceof Error);
    const rest = args.filter((arg) => arg !== error);
    const msg = redactSecrets(format(...rest));
    if (error === undefined) log[level](msg);
    else log[level]({ err: error }, msg || redactSecrets(/** @type {Error} */ (error).message));
  };
  console.log = forward("info");
  console.info = forward("info");
  console.warn = forward("warn");
  console.error = forward("error");
}
