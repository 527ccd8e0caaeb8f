import type { WaitProgress } from "../index.js";

// What the person sees while the CLI waits for the outcome: on a terminal, a spinner with the
// time left, redrawn in place; elsewhere (a log, a pipe), a plain line at most once a minute.

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const FRAME_MS = 100;
const PLAIN_EVERY_MS = 60_000;

export type WaitDisplay = { update(progress: WaitProgress): void; stop(): void };

/** `m:ss` (or `h:mm:ss`) left, never below zero. */
export function formatRemaining(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

export function waitDisplay(stream: NodeJS.WriteStream, remainingMs: number): WaitDisplay {
  // The deadline by the local clock, from the server's own count of what is left (clocks may differ).
  let deadline = Date.now() + remainingMs;
  const message = () => `Waiting for approval… ${formatRemaining(deadline - Date.now())} left`;
  if (!stream.isTTY) {
    stream.write(`${message()}\n`);
    let printedAt = Date.now();
    return {
      update(progress) {
        deadline = Date.now() + progress.remainingMs;
        if (Date.now() - printedAt < PLAIN_EVERY_MS) return;
        printedAt = Date.now();
        stream.write(`${message()}\n`);
      },
      stop() {},
    };
  }
  let frame = 0;
  const draw = () => stream.write(`\r\x1b[2K${FRAMES[frame++ % FRAMES.length]} ${message()}`);
  stream.write("\x1b[?25l");
  draw();
  const timer = setInterval(draw, FRAME_MS);
  return {
    update(progress) {
      deadline = Date.now() + progress.remainingMs;
    },
    stop() {
      clearInterval(timer);
      stream.write("\r\x1b[2K\x1b[?25h");
    },
  };
}
