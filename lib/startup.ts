import { config, ConfigError } from "./config";
import { SealedValueError } from "./crypto/sealed";
import { prepareSigningKey } from "./signing-keys/signing-keys";
import { startOutbox } from "./email/outbox";
import { startWebhookWorker } from "./events/delivery";
import { startMaintenance } from "./maintenance/maintenance";
import { fillKeyReserve } from "./projects/key-queue";
import { logger } from "../server/logger.mjs";

function exit(message: string, error?: unknown): never {
  logger().fatal(error === undefined ? {} : { err: error }, message);
  process.exit(1);
}

/**
 * Runs when the server starts, before it takes requests: a bad setting, or a master key that
 * does not open the keys already in the database, stops it with a clear message. So does any
 * other failure (the database out of reach): Next.js keeps a failed start-up hook and answers
 * every request with its error, so a process that cannot start ends, and its primary replaces it.
 */
export async function startUp(): Promise<void> {
  try {
    config();
  } catch (error) {
    if (error instanceof ConfigError) exit(error.message);
    throw error;
  }
  try {
    await prepareSigningKey(config());
  } catch (error) {
    if (error instanceof SealedValueError) {
      exit("MASTER_KEY does not open the signing keys stored in the database. Start with the master key this database was created with (see docs/design.md, Key management).");
    }
    exit("the server could not start", error);
  }
  startMaintenance(config());
  // Mail queued before a restart, and retries, leave without waiting for a request.
  startOutbox(config());
  // Events queued before a restart, retries, and leases a killed process left, the same way.
  startWebhookWorker(config());
  // Ready project keys before the first new project asks for one.
  fillKeyReserve(config());
}
