import { createHash, createPublicKey, generateKeyPair } from "node:crypto";
import { promisify } from "node:util";
import type { Config } from "../config";
import { seal } from "../crypto/sealed";
import { db, isUniqueViolation } from "../db";

// Each project's RSA key pair. 4096 bits because existing clients encrypt 255-byte chunks with
// RSA-OAEP (SHA-1), and a 2048-bit key takes at most 214 bytes. Generating one costs a second
// or two of CPU, so a new project's key is started in the background (on libuv's thread pool)
// and anything that hands the key out waits for it.

const RSA_MODULUS_BITS = 4096;
const generateRsaKeyPair = promisify(generateKeyPair);

export type ProjectPublicKey = { pem: string; fingerprint: string };

/** "SHA256:" and the base64 SHA-256 of the key's DER SubjectPublicKeyInfo, as a client can compute it. */
export function publicKeyFingerprint(pem: string): string {
  const der = createPublicKey(pem).export({ type: "spki", format: "der" });
  return `SHA256:${createHash("sha256").update(der).digest("base64").replace(/=+$/, "")}`;
}

/** Associated data that ties a sealed private key to its project. */
export const projectKeyAssociatedData = (projectId: string) => `project-key:${projectId}`;

/** The project's public key if it has been generated, without waiting. */
export async function storedKey(projectId: string): Promise<ProjectPublicKey | null> {
  const prisma = await db();
  const row = await prisma.projectKey.findUnique({ where: { projectId }, select: { publicKeyPem: true, fingerprint: true } });
  return row && { pem: row.publicKeyPem, fingerprint: row.fingerprint };
}

// One generation at a time per process: they share libuv's thread pool with password hashing,
// and many new projects at once must not hold up sign-ins.
let generationQueue: Promise<unknown> = Promise.resolve();

function generateQueued() {
  const generation = generationQueue.then(() =>
    generateRsaKeyPair("rsa", {
      modulusLength: RSA_MODULUS_BITS,
      publicKeyEncoding: { type: "spki", format: "pem" },
      privateKeyEncoding: { type: "pkcs8", format: "der" },
    }),
  );
  generationQueue = generation.catch(() => undefined);
  return generation;
}

async function generateAndStore(cfg: Config, projectId: string): Promise<ProjectPublicKey> {
  const { publicKey, privateKey } = await generateQueued();
  const key = { pem: publicKey, fingerprint: publicKeyFingerprint(publicKey) };
  const prisma = await db();
  try {
    await prisma.projectKey.create({
      data: {
        projectId,
        publicKeyPem: key.pem,
        fingerprint: key.fingerprint,
        privateKeySealed: seal(cfg.masterKey, privateKey, projectKeyAssociatedData(projectId)),
        createdAt: new Date(),
      },
    });
    return key;
  } catch (error) {
    // Another instance stored its key first; that one is the project's key.
    if (!isUniqueViolation(error)) throw error;
    const winner = await storedKey(projectId);
    if (winner === null) throw error;
    return winner;
  }
}

// Generations under way in this process, so that a link request arriving while the background
// generation runs waits for it instead of starting a second one.
const underway = new Map<string, Promise<ProjectPublicKey>>();

/** The project's public key, generated now if it does not exist yet. The project must exist. */
export async function projectPublicKey(cfg: Config, projectId: string): Promise<ProjectPublicKey> {
  const existing = await storedKey(projectId);
  if (existing !== null) return existing;
  let pending = underway.get(projectId);
  if (pending === undefined) {
    pending = generateAndStore(cfg, projectId).finally(() => underway.delete(projectId));
    underway.set(projectId, pending);
  }
  return pending;
}

/** Starts generating a new project's key without waiting for it; a failure is logged and retried on first use. */
export function prepareProjectKey(cfg: Config, projectId: string): void {
  projectPublicKey(cfg, projectId).catch((error: unknown) => {
    console.error(JSON.stringify({ level: "error", msg: "project key generation failed", projectId, error: String(error) }));
  });
}
