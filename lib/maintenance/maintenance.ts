import type { Config } from "../config";
import { rotateSigningKeys } from "../signing-keys/signing-keys";
import { logger } from "../../server/logger.mjs";
import { sweep, type SweepResult } from "./sweep";

// The maintenance timer of every instance: deletes what has expired and rotates the signing
// key when it is due, off the request path. Both steps are idempotent, so instances may run
// them at the same time.

/** Both steps run even if the other fails; either failure is then thrown. */
export async function runMaintenance(cfg: Config): Promise<SweepResult> {
  const [rotated, swept] = await Promise.allSettled([rotateSigningKeys(cfg), sweep(cfg)]);
  if (rotated.status === "rejected") throw rotated.reason;
  if (swept.status === "rejected") throw swept.reason;
  return swept.value;
}

/** Runs maintenance now and every SWEEP_INTERVAL_SECONDS, logging what it removed; never keeps the process alive. */
export function startMaintenance(cfg: Config): void {
  const run = () => {
    runMaintenance(cfg)
      .then((removed) => {
        if (Object.values(removed).some((count) => count > 0)) logger().info(removed, "swept");
      })
      .catch((error: unknown) => logger().error({ err: error }, "maintenance failed"));
  };
  run();
  setInterval(run, cfg.sweepIntervalMs).unref();
}
