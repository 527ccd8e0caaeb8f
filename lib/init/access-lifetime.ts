import type { Config } from "../config";
import { ApiError } from "../errors";

// A lifetime the person chooses: on the approval page the person chooses how
// long the client's access lasts, among ACCESS_LIFETIME_CHOICES (server/config.mjs), the longest
// being the maximum. The choice is kept on the init; the access it gives ends at accessExpiresAt.

export type AccessLifetime = Config["accessLifetimes"]["choices"][number];

/** The lifetime the approve form named (absent: the preselected one); invalid_request naming the choices if it is none of them. */
export function chosenAccessLifetime(cfg: Config, label: string | undefined): AccessLifetime {
  const { choices, preselected } = cfg.accessLifetimes;
  if (label === undefined) return preselected;
  const chosen = choices.find((choice) => choice.label === label.trim().toLowerCase());
  if (chosen !== undefined) return chosen;
  const allowed = choices.map((choice) => choice.label).join(", ");
  throw new ApiError("invalid_request", `access_lifetime must be one of ${allowed}.`, { fields: [{ field: "access_lifetime", message: `must be one of ${allowed}` }] });
}

/**
 * When access given at `issuedAt` ends, for an init whose person chose `chosenSeconds` (null:
 * approved before the choice existed, the preselected lifetime). Never past the longest choice
 * configured now: an operator who shortens the maximum shortens what is issued after. The
 * access token of a pickup and the device-code grant end here; so should anything else that
 * approval gives (a refresh-token family's absolute lifetime).
 */
export function accessExpiresAt(cfg: Config, chosenSeconds: number | null, issuedAt: Date): Date {
  const { choices, preselected } = cfg.accessLifetimes;
  const longest = choices[choices.length - 1].ms;
  const chosenMs = chosenSeconds === null ? preselected.ms : chosenSeconds * 1000;
  return new Date(issuedAt.getTime() + Math.min(chosenMs, longest));
}

const UNITS: [string, number][] = [
  ["day", 24 * 60 * 60 * 1000],
  ["hour", 60 * 60 * 1000],
];

/** "1 hour", "30 days": a lifetime for people to read. */
export function lifetimeText(ms: number): string {
  const [unit, size] = UNITS.find(([, length]) => ms % length === 0 && ms >= length) ?? ["hour", 60 * 60 * 1000];
  const count = Math.round(ms / size);
  return `${count} ${unit}${count === 1 ? "" : "s"}`;
}
