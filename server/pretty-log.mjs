// @ts-check
// Log lines for a person at a terminal: when stdout is a TTY, `npm start` and the server print
// "12:04:31 info  ready: open http://localhost:3000" instead of the JSON object that CI, log
// collectors and production read (not a TTY there). A few lines of our own rather than
// pino-pretty, which brings a dozen packages for what is one function here; and the start
// script's first lines are printed before any package is installed. Node's own modules only.

const LEVEL_COLOURS = { trace: 90, debug: 90, info: 32, warn: 33, error: 31, fatal: 31 };

// Shown at the line's start (time, level, message) or not at all (pid: one per process, noise at a terminal).
const OMITTED = new Set(["time", "level", "msg", "pid", "err"]);

/** @param {unknown} value */
function fieldValue(value) {
  if (typeof value === "string") return /\s/.test(value) || value === "" ? JSON.stringify(value) : value;
  return JSON.stringify(value);
}

/**
 * One JSON log line (server/logger.mjs) as a line for a person: the local time, the level,
 * the message, the other fields as key=value, and an error's stack below. Anything that is not
 * a JSON object is returned as it came.
 * @param {string} json one line, without its newline
 * @param {{ colour?: boolean }} [options] colour the level (a terminal that has not set NO_COLOR)
 * @returns {string} with its newline
 */
export function prettyLogLine(json, { colour = false } = {}) {
  /** @type {Record<string, unknown>} */
  let fields;
  try {
    const parsed = JSON.parse(json);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return `${json}\n`;
    fields = parsed;
  } catch {
    return `${json}\n`;
  }
  const time = typeof fields.time === "string" ? new Date(fields.time) : new Date();
  const clock = Number.isNaN(time.getTime()) ? "" : time.toTimeString().slice(0, 8);
  const level = typeof fields.level === "string" ? fields.level : "info";
  const code = LEVEL_COLOURS[/** @type {keyof typeof LEVEL_COLOURS} */ (level)] ?? 0;
  const levelText = level.padEnd(5);
  const shownLevel = colour && code !== 0 ? `\u001b[${code}m${levelText}\u001b[39m` : levelText;
  const msg = String(fields.msg ?? "");
  // A field the message already quotes ("ready: open <url>") is said once.
  const extras = Object.entries(fields)
    .filter(([key, value]) => !OMITTED.has(key) && !(typeof value === "string" && value !== "" && msg.includes(value)))
    .map(([key, value]) => `${key}=${fieldValue(value)}`);
  const message = [clock, shownLevel, msg, ...extras].filter((part) => part !== "").join(" ");
  const error = /** @type {{ stack?: unknown, message?: unknown } | undefined} */ (fields.err);
  const detail = error === undefined ? "" : `\n  ${String(error.stack || error.message || "").replaceAll("\n", "\n  ")}`;
  return `${message}${detail}\n`;
}

/** Whether this process prints for a person: stdout is a terminal. */
export const stdoutIsTerminal = () => process.stdout.isTTY === true;

/** Colour at a terminal unless NO_COLOR is set (no-color.org). */
export const terminalColour = () => stdoutIsTerminal() && !process.env.NO_COLOR;
