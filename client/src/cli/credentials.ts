import { createPrivateKey, randomBytes, type KeyObject } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import { newDpopKey } from "../dpop.js";
import { CliFailure } from "./exit-codes.js";

// Where the CLI keeps what login and link collected: one JSON file readable by its owner alone
// (0600 in a 0700 directory), replaced whole on each change so that a crash never leaves half of it;
// and beside it, as readable, the DPoP key its access tokens are bound to (RFC 9449).

/** A project link the CLI made: the same iv asked again gets the same link with a fresh bearer. */
export type StoredLink = { iv: string; link_id: string; bearer: string; expires_at: number };

export type ServerCredentials = {
  server: string;
  access_token: string;
  /** `DPoP`: bound to the key of dpop-key.pem. Absent in files written before DPoP: a bearer token. */
  token_type?: "Bearer" | "DPoP";
  access_token_expires_at: number;
  project: { id: string; name: string };
  project_url: string;
  approved_by: { email: string } | null;
  stored_at: number;
  links: Record<string, StoredLink>;
};

export type Credentials = {
  version: 1;
  /** The server of the latest login: `link` uses it when no --server is given. */
  current: string | null;
  servers: Record<string, ServerCredentials>;
};

/** $INITLINK_CONFIG_DIR, else $XDG_CONFIG_HOME/initlink (when absolute, as the XDG spec requires), else ~/.config/initlink. */
export function configDirectory(env: Record<string, string | undefined> = process.env): string {
  if (env.INITLINK_CONFIG_DIR) return path.resolve(env.INITLINK_CONFIG_DIR);
  const base = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(homedir(), ".config");
  return path.join(base, "initlink");
}

export const credentialsFile = (directory: string) => path.join(directory, "credentials.json");

export async function readCredentials(directory: string): Promise<Credentials> {
  let text: string;
  try {
    text = await readFile(credentialsFile(directory), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { version: 1, current: null, servers: {} };
    throw error;
  }
  try {
    const credentials = JSON.parse(text) as Partial<Credentials> | null;
    if (credentials?.version === 1 && typeof credentials.servers === "object" && credentials.servers !== null) return credentials as Credentials;
  } catch {
    // Said below, with what to do.
  }
  throw new CliFailure(`${credentialsFile(directory)} is not a credentials file of this CLI: remove it and log in again.`);
}

export const dpopKeyFile = (directory: string) => path.join(directory, "dpop-key.pem");

/** The CLI's DPoP key (PKCS #8 PEM, 0600); made on first use. Two CLIs making it at once keep the first. */
export async function dpopKey(directory: string): Promise<KeyObject> {
  const file = dpopKeyFile(directory);
  try {
    return createPrivateKey(await readFile(file, "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw new CliFailure(`${file} is not a DPoP key of this CLI: remove it and log in again.`);
  }
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const key = newDpopKey();
  try {
    await writeFile(file, key.export({ format: "pem", type: "pkcs8" }), { mode: 0o600, flag: "wx" });
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return createPrivateKey(await readFile(file, "utf8"));
    throw error;
  }
}

export async function writeCredentials(directory: string, credentials: Credentials): Promise<void> {
  await mkdir(directory, { recursive: true, mode: 0o700 });
  // Created with its final mode (never readable by others, not even for a moment), then renamed over the old file.
  const temporary = path.join(directory, `.credentials-${randomBytes(6).toString("hex")}.tmp`);
  try {
    await writeFile(temporary, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600, flag: "wx" });
    await rename(temporary, credentialsFile(directory));
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
