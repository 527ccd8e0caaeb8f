// @ts-check
import { availableParallelism } from "node:os";

/** Worker processes of `npm start`: WEB_CONCURRENCY (checked by server/config.mjs before this runs), else one per core. @param {string | undefined} value */
export function workerCount(value) {
  const parsed = Number(value?.trim());
  return Number.isInteger(parsed) && parsed > 0 ? parsed : availableParallelism();
}
