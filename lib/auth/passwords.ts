import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";
import type { Config } from "../config";
import { concurrencyLimit } from "../limits/concurrency";
import { processWide } from "../process-wide";

// scrypt, memory-hard, at OWASP's recommended cost: N=2^17, r=8, p=1 (128 MiB and a few hundred
// ms a hash), a 16-byte salt and a 32-byte key. Each hash is stored as
// `scrypt$N$r$p$salt$key`, so older hashes (N=2^15 before) still verify with their own
// parameters, and a sign-in replaces one below today's cost (needsRehash).
const PARAMS = { N: 2 ** 17, r: 8, p: 1 };
// TEST_PASSWORD_COST=low (the test suites only: refused unless NODE_ENV=test): the same code
// and format at a 128th of the work, so a suite's thousand sign-ups take seconds, not minutes.
const TEST_PARAMS = { N: 2 ** 10, r: 8, p: 1 };
const KEY_LENGTH = 32;

type Params = { N: number; r: number; p: number };

const paramsOf = (cfg: Config): Params => (cfg.passwordCost === "low" ? TEST_PARAMS : PARAMS);

// Each hash holds 128 MiB while it runs, and sign-in, sign-up and the unknown-email check can be
// asked for by anyone: without a bound a flood would run one per libuv thread (four) in every
// worker. Two at once per process keep a worker's extra memory at 256 MiB and leave libuv
// threads for file and DNS work; the others wait their turn.
const HASHES_AT_ONCE = 2;
const hashSlots = processWide("password-hash-slots", () => concurrencyLimit(HASHES_AT_ONCE));

function derive(password: string, salt: Buffer, params: Params): Promise<Buffer> {
  // scrypt needs 128·N·r bytes; Node refuses anything above maxmem (32 MiB by default).
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r };
  return hashSlots(
    () =>
      new Promise((resolve, reject) => {
        scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key)));
      }),
  );
}

type StoredHash = { params: Params; salt: Buffer; key: Buffer };

function parseHash(stored: string): StoredHash | null {
  const [scheme, n, r, p, salt, key, ...rest] = stored.split("$");
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (scheme !== "scrypt" || !salt || !key || rest.length > 0 || ![params.N, params.r, params.p].every((value) => Number.isSafeInteger(value) && value > 0)) return null;
  return { params, salt: Buffer.from(salt, "base64url"), key: Buffer.from(key, "base64url") };
}

export async function hashPassword(cfg: Config, password: string): Promise<string> {
  const params = paramsOf(cfg);
  const salt = randomBytes(16);
  const key = await derive(password, salt, params);
  return ["scrypt", params.N, params.r, params.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const hash = parseHash(stored);
  if (hash === null) return false;
  const actual = await derive(password, hash.salt, hash.params);
  return actual.length === hash.key.length && timingSafeEqual(actual, hash.key);
}

/** Whether a stored hash was made at a lower cost than today's (or cannot be read). */
export function needsRehash(cfg: Config, stored: string): boolean {
  const params = paramsOf(cfg);
  const hash = parseHash(stored);
  return hash === null || hash.params.N < params.N || hash.params.r < params.r || hash.params.p < params.p;
}

// Checked against when the email is unknown, so that a sign-in takes as long either way.
const dummyHashes = new Map<Config["passwordCost"], Promise<string>>();
export function unknownUserHash(cfg: Config): Promise<string> {
  let dummy = dummyHashes.get(cfg.passwordCost);
  if (dummy === undefined) {
    dummy = hashPassword(cfg, randomBytes(16).toString("hex"));
    dummyHashes.set(cfg.passwordCost, dummy);
  }
  return dummy;
}
