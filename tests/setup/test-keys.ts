import { createPublicKey, generateKeyPair } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import type { TestProject } from "vitest/node";
import type { StoredKeyPair } from "@/lib/projects/test-keys";

// The suites' pre-generated project keys (TEST_PROJECT_KEYS_FILE, lib/projects/test-keys.ts):
// RSA-4096 pairs made on this machine the first time the suites run and kept in .cache, which
// git ignores, so no private key is ever committed; the service refuses the setting unless
// NODE_ENV=test. Enough for the file that makes the most projects; past them keys are generated.

const COUNT = 48;

function stored(file: string): StoredKeyPair[] {
  try {
    const pairs = JSON.parse(readFileSync(file, "utf8")) as StoredKeyPair[];
    return pairs.filter((pair) => createPublicKey(pair.publicKeyPem).asymmetricKeyDetails?.modulusLength === 4096);
  } catch {
    return [];
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const file = project.config.env.TEST_PROJECT_KEYS_FILE;
  if (!file) return;
  const pairs = stored(file);
  if (pairs.length >= COUNT) return;
  const generate = promisify(generateKeyPair);
  // Node generates them on its thread pool, on every core at once.
  const made = await Promise.all(
    Array.from({ length: COUNT - pairs.length }, () =>
      generate("rsa", { modulusLength: 4096, publicKeyEncoding: { type: "spki", format: "pem" }, privateKeyEncoding: { type: "pkcs8", format: "der" } }),
    ),
  );
  mkdirSync(path.dirname(file), { recursive: true });
  const all = [...pairs, ...made.map(({ publicKey, privateKey }) => ({ publicKeyPem: publicKey, privateKeyDer: privateKey.toString("base64") }))];
  // Written whole, then renamed, so a run stopped halfway leaves no broken file.
  writeFileSync(`${file}.tmp`, JSON.stringify(all));
  renameSync(`${file}.tmp`, file);
}
