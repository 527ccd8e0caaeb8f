#!/usr/bin/env node
// `initlink`: the reference command-line client of initlink, built on the typed client (docs/cli.md).
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { InitlinkClient, InitlinkError } from "../index.js";
import { configDirectory, dpopKey, readCredentials } from "./credentials.js";
import { CliFailure, ExitCode } from "./exit-codes.js";
import { link } from "./link.js";
import { login } from "./login.js";

const USAGE = `Usage:
  initlink login <server> [--open] [--device <name>]
      Asks you to approve this device in the browser, then stores its access token.
      --open           also open the link in the browser
      --device <name>  the device name the approval page shows (default: this host's name)
  initlink link [--server <server>] [--] [projectId]
      Links this device to the project (default: the one of the login) and prints its key's
      fingerprint, to compare with the one on the project page.
      --server <server>  the server of an earlier login (default: the latest)
      --                 ends the options: a project id may start with "-"

Exit codes: 0 done, 1 failed, 2 wrong usage or not logged in, 3 denied, 4 expired, 130 interrupted.
The access token is stored in ${configDirectory()}/credentials.json, bound to the DPoP key
in dpop-key.pem beside it (INITLINK_CONFIG_DIR moves both).
`;

const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
const userAgent = `initlink-cli/${version} (${process.platform}; node ${process.versions.node})`;

function usage(problem: string): ExitCode {
  process.stderr.write(`initlink: ${problem}\n\n${USAGE}`);
  return ExitCode.usage;
}

/** A client of `server` with the CLI's DPoP key, or null (said on stderr) when it is not an http(s) address. */
async function clientOf(server: string): Promise<InitlinkClient | null> {
  const key = await dpopKey(configDirectory());
  try {
    return new InitlinkClient({ server, userAgent, dpopKey: key });
  } catch {
    process.stderr.write(`initlink: "${server}" is not a server address: give it as http(s)://host[:port]\n`);
    return null;
  }
}

async function run(args: string[], signal: AbortSignal): Promise<ExitCode> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { open: { type: "boolean", default: false }, device: { type: "string" }, server: { type: "string" }, help: { type: "boolean", short: "h", default: false } },
    });
  } catch (error) {
    return usage(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  const [command, ...operands] = positionals;
  if (values.help) {
    process.stdout.write(USAGE);
    return ExitCode.ok;
  }
  switch (command) {
    case "login": {
      if (operands.length !== 1) return usage("login needs the server's address, and only that.");
      const client = await clientOf(operands[0]);
      return client === null ? ExitCode.usage : login(client, { open: values.open, device: values.device, signal });
    }
    case "link": {
      if (operands.length > 1) return usage("link takes at most a project id.");
      const server = values.server ?? (await readCredentials(configDirectory())).current;
      if (server === null) return usage("not logged in: run `initlink login <server>` first.");
      const client = await clientOf(server);
      return client === null ? ExitCode.usage : link(client, { projectId: operands[0], signal });
    }
    case undefined:
      return usage("which command?");
    default:
      return usage(`unknown command "${command}".`);
  }
}

const interrupted = new AbortController();
process.once("SIGINT", () => interrupted.abort(new Error("interrupted")));

run(process.argv.slice(2), interrupted.signal).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (interrupted.signal.aborted) {
      process.stderr.write("\nInterrupted.\n");
      process.exitCode = ExitCode.cancelled;
    } else if (error instanceof InitlinkError) {
      const hint = error.code === "invalid_token" || error.code === "invalid_dpop_proof" ? " Run `initlink login <server>` again." : "";
      process.stderr.write(`initlink: ${error.message} [${error.code}${error.status === null ? "" : `, HTTP ${error.status}`}]${hint}\n`);
      process.exitCode = ExitCode.failure;
    } else if (error instanceof CliFailure) {
      process.stderr.write(`initlink: ${error.message}\n`);
      process.exitCode = error.exitCode;
    } else {
      process.stderr.write(`initlink: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = ExitCode.failure;
    }
  },
);
