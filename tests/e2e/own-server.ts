import { execFileSync, spawn } from "node:child_process";

// A spec's own production server (npm start) on a scratch database, beside the suite's three:
// for settings the shared servers must not have. Its output is kept for the spec to search.

export type OwnServer = { output: () => string; stop: () => void };

/** Starts the server with `env` on top of this process's, and resolves once it answers /api/live. */
export async function startOwnServer(port: number, env: Record<string, string>): Promise<OwnServer> {
  const all = { ...process.env, PORT: String(port), HOSTNAME: "127.0.0.1", NEXT_TELEMETRY_DISABLED: "1", ...env };
  // Node itself, not a shell around it, so that stop()'s kill reaches the server.
  execFileSync(process.execPath, ["tests/setup/reset-database.mjs"], { env: all });
  const server = spawn(process.execPath, ["scripts/start.mjs"], { env: all });
  let output = "";
  server.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  server.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const running = { output: () => output, stop: () => void server.kill("SIGTERM") };
  for (let attempt = 0; attempt < 600; attempt++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/live`)).ok) return running;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  running.stop();
  throw new Error(`the server did not start:\n${output}`);
}
