import type { Config } from "../config";
import { db } from "../database/db";
import { ApiError, notFound } from "../errors";

// A link approved in the browser (LEGACY_LINK_APPROVAL; docs/api.md, Compatibility with existing
// clients). An existing client without an access token asks for a link with
// POST /api/projects/{projectId}/link/{iv} and no Authorization; the person approves or denies
// that (project, iv) on /projects/{projectId}/link/{iv}, and only while a client is asking for it
// (a POST within ASKING_WINDOW_MS): one click on a crafted page must not approve, ahead of any
// client, a link that whoever holds the iv then collects. Its states:
//   waiting   the client asked; no decision yet (each POST keeps it for another lifetime)
//   approved  the next POST for exactly this (project, iv) gets the link, once, within the lifetime
//             (stored "claiming" while that POST makes the link; the row goes once the link exists)
//   denied    the POSTs are refused until the row is swept, also once its lifetime is over
//   expired   an approval older than the lifetime: void
//   linked    claimed: the row is gone and a ProjectLink holds (project, iv), like any other link

export type LinkApprovalState = "waiting" | "approved" | "denied" | "expired";

/**
 * A stored status read at `now`: an approval past its expiry is void; a claim under way is still
 * an approval; a denial stays one (telling the client to have it approved again would be false).
 */
export function linkApprovalState(status: string, expiresAt: Date, now: number): LinkApprovalState {
  if (status === "denied") return "denied";
  if (status !== "approved" && status !== "claiming") return "waiting";
  return expiresAt.getTime() <= now ? "expired" : "approved";
}

/** A client is asking for a (project, iv) while its latest POST is this recent: the person may decide only then. */
export const ASKING_WINDOW_MS = 60_000;

/** Half the window: a client that asks at least this often is always seen asking. */
const RECORD_AT_MOST_EVERY_MS = ASKING_WINDOW_MS / 2;

/**
 * Whether a POST at `now` is recorded (when the client asked, from where; a waiting request is
 * kept for another lifetime): at most every 30 s (each write is a durable commit), and always
 * before half the lifetime is gone, so a client that keeps asking is never swept, however short
 * the lifetime. `askedAt` null: never recorded.
 */
export function askNeedsRecording(askedAt: Date | null, now: number, lifetimeMs: number): boolean {
  return askedAt === null || now - askedAt.getTime() >= Math.min(RECORD_AT_MOST_EVERY_MS, lifetimeMs / 2);
}

/** Whether a client asked for the (project, iv) within ASKING_WINDOW_MS of `now`. */
export const clientIsAsking = (askedAt: Date | null, now: number) => askedAt !== null && now - askedAt.getTime() < ASKING_WINDOW_MS;

/** With the switch off, the page and its forms do not exist. */
export function assertLegacyLinkApproval(cfg: Config): void {
  if (!cfg.legacyLinkApproval.enabled) throw notFound("Not found.");
}

export const alreadyLinked = () => new ApiError("link_conflict", "A client is already linked under this iv for this project. Choose a new random iv.");

/** Deletes requests and decisions past their expiry (lib/maintenance/sweep.ts). */
export async function sweepLinkApprovals(now: number): Promise<number> {
  const prisma = await db();
  return (await prisma.linkApproval.deleteMany({ where: { expiresAt: { lt: new Date(now) } } })).count;
}
