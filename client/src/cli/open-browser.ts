import { spawn } from "node:child_process";

/** How long an opener may run before it counts as started (xdg-open may stay until the browser exits). */
const STARTED_AFTER_MS = 3000;

function opener(url: string): { command: string; args: string[] } {
  if (process.platform === "darwin") return { command: "open", args: [url] };
  // cmd's start: the empty title comes first; & would end the command, so it is escaped.
  if (process.platform === "win32") return { command: "cmd", args: ["/c", "start", '""', url.replace(/&/g, "^&")] };
  return { command: "xdg-open", args: [url] };
}

/** Opens `url` in the person's browser; resolves false (never rejects) when that did not work. */
export function openInBrowser(url: string): Promise<boolean> {
  const { command, args } = opener(url);
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "ignore", detached: true, windowsVerbatimArguments: process.platform === "win32" });
    const timer = setTimeout(() => resolve(true), STARTED_AFTER_MS);
    child.once("error", () => {
      clearTimeout(timer);
      resolve(false);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve(code === 0);
    });
    child.unref();
  });
}
