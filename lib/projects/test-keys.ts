import { readFileSync } from "node:fs";
import type { Config } from "../config";
import { processWide } from "../process-wide";
import type { RsaKeyPair } from "./key-threads";

// TEST_PROJECT_KEYS_FILE (the test suites only: parseConfig refuses it unless NODE_ENV=test):
// RSA-4096 pairs that tests/setup/test-keys.ts generated into .cache (never committed), handed
// out one by one in place of a generation, so that a suite's hundreds of new projects do not
// each wait a second or more of CPU. The queue around them is unchanged; each pair serves one
// project per process, and once they run out pairs are generated as usual.

/** The fixture's format: the private key as base64 PKCS#8 DER. */
export type StoredKeyPair = { publicKeyPem: string; privateKeyDer: string };

const fixture = processWide<{ left: RsaKeyPair[] | null }>("test-project-keys", () => ({ left: null }));

/** The next unused pre-generated pair, or undefined: none configured, or all used. */
export function pregeneratedKeyPair(cfg: Config): RsaKeyPair | undefined {
  const file = cfg.projectKeys.testKeysFile;
  if (file === null) return undefined;
  fixture.left ??= (JSON.parse(readFileSync(file, "utf8")) as StoredKeyPair[]).map((pair) => ({
    publicKeyPem: pair.publicKeyPem,
    privateKeyDer: Buffer.from(pair.privateKeyDer, "base64"),
  }));
  return fixture.left.shift();
}
