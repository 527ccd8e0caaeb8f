import { createHash, createPublicKey } from "node:crypto";
import type { Config } from "../config";
import { seal } from "../crypto/sealed";
import { db, isForeignKeyViolation, isUniqueViolation } from "../database/db";
import { ApiError, notFound } from "../errors";
import { processWide } from "../process-wide";
import { logger } from "../../server/logger.mjs";
import { returnKeyPair, takeKeyPair } from "./key-queue";
import type { RsaKeyPair } from "./key-threads";

// Each project's RSA key pair. 4096 bits because existing clients encrypt 255-byte chunks with
// RSA-OAEP (SHA-1), and a 2048-bit key takes at most 214 bytes. Generating one costs a second
// or more of CPU, so a project gets its key only when it is first needed: its
// first link, or its owner opening its page; never at its approval, nor for projects nobody
// uses. It comes from the process's reserve or in its account's turn (key-queue.ts), and
// anything that hands the key out waits for it, but never longer than PROJECT_KEY_WAIT_MS: past
// that it answers 503 key_not_ready with Retry-After, and the generation carries on for the retry.

/** Roughly one generation: when a retry may find the key. */
const RETRY_AFTER_SECONDS = 2;

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

const keyNotReady = () =>
  new ApiError("key_not_ready", "This project's key pair is still being generated. Try again shortly.", { retryInSeconds: RETRY_AFTER_SECONDS });

const projectGone = () => notFound("This project no longer exists.");

async function store(cfg: Config, projectId: string, pair: RsaKeyPair): Promise<ProjectPublicKey> {
  const key = { pem: pair.publicKeyPem, fingerprint: publicKeyFingerprint(pair.publicKeyPem) };
  const prisma = await db();
  try {
    await prisma.projectKey.create({
      data: {
        projectId,
        publicKeyPem: key.pem,
        fingerprint: key.fingerprint,
        privateKeySealed: seal(cfg.masterKey, pair.privateKeyDer, projectKeyAssociatedData(projectId)),
        createdAt: new Date(),
      },
    });
    return key;
  } catch (error) {
    // The project was deleted while its key was generated (an approval that lost its race
    // removes the project it made): the pair can serve another project.
    if (isForeignKeyViolation(error)) {
      returnKeyPair(cfg, pair);
      throw projectGone();
    }
    // Another instance stored its key first; that one is the project's key, and this pair can
    // serve another project.
    if (!isUniqueViolation(error)) throw error;
    const winner = await storedKey(projectId);
    if (winner === null) throw error;
    returnKeyPair(cfg, pair);
    return winner;
  }
}

// Keys under way in this process, so that a request arriving while the generation runs waits
// for it instead of starting a second one.
const underway = processWide("project-keys-underway", () => new Map<string, Promise<ProjectPublicKey>>());

/** The project's key under way, started now in its owner's turn; null when the owner may queue no more. */
function keyUnderway(cfg: Config, projectId: string, ownerId: string): Promise<ProjectPublicKey> | null {
  const pending = underway.get(projectId);
  if (pending !== undefined) return pending;
  const pair = takeKeyPair(cfg, ownerId);
  if (pair === null) return null;
  const started = pair.then((generated) => store(cfg, projectId, generated)).finally(() => underway.delete(projectId));
  underway.set(projectId, started);
  return started;
}

const logFailure = (projectId: string) => (error: unknown) => {
  // A project deleted meanwhile needs no key: nothing failed.
  if (error instanceof ApiError && error.code === "not_found") return;
  logger().error({ err: error, project_id: projectId }, "project key generation failed");
};

/** The project's public key, or null; whose project it is. */
async function keyAndOwner(projectId: string) {
  const prisma = await db();
  return prisma.project.findUnique({ where: { id: projectId }, select: { ownerId: true, key: { select: { publicKeyPem: true, fingerprint: true } } } });
}

/** `pending` if it settles within `ms`; else key_not_ready (it keeps going). */
function withinBound(pending: Promise<ProjectPublicKey>, ms: number): Promise<ProjectPublicKey> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(keyNotReady()), ms);
  });
  return Promise.race([pending, bound]).finally(() => clearTimeout(timer));
}

/**
 * The project's public key, generated now if it does not exist yet; key_not_ready (503) when it
 * is not there within PROJECT_KEY_WAIT_MS, or its owner may queue no more generations. The
 * project must exist.
 */
export async function projectPublicKey(cfg: Config, projectId: string): Promise<ProjectPublicKey> {
  const project = await keyAndOwner(projectId);
  if (project === null) throw new Error(`no project ${projectId}`);
  if (project.key !== null) return { pem: project.key.publicKeyPem, fingerprint: project.key.fingerprint };
  const pending = keyUnderway(cfg, projectId, project.ownerId);
  if (pending === null) throw keyNotReady();
  return withinBound(pending, cfg.projectKeys.waitMs);
}

/**
 * Starts a project's key without waiting for it, for a page that shows the key to its owner. An
 * owner with as many generations queued as allowed gets nothing now: the page asks again when it
 * refreshes, as a link's retry does; a failure is logged and tried again on the next use.
 */
export function prepareProjectKey(cfg: Config, projectId: string): void {
  keyAndOwner(projectId)
    .then((project) => {
      if (project === null || project.key !== null) return;
      return keyUnderway(cfg, projectId, project.ownerId);
    })
    .catch(logFailure(projectId));
}
