import { deleteOldActivity, recordExpiries } from "../activity/sweep-activity";
import type { Config } from "../config";
import { db } from "../database/db";
import { sweepPollClocks } from "../init/poll-interval";
import { sweepEndedWindows } from "../limits/rate-limit";
import { limitRules } from "../limits/rules";
import { sweepOutbox } from "../email/outbox";
import { sweepWebhookMessages } from "../events/delivery";
import { sweepSpentFlows } from "../identity/spent-flows";
import { sweepLinkApprovals } from "../links/link-approval-lifecycle";
import { sweepDpopProofs } from "../oauth/dpop";
import { sweepPasskeyChallenges } from "../passkeys/challenges";
import { keepProjectAliases } from "../projects/resolve-project";
import { sweepInvitations } from "../teams/invitations";

// Deletes what the service no longer needs, so the database does not grow without bound:
// inits (with their secrets' hashes and poll clocks) INIT_RETENTION_SECONDS after they expired,
// expired sessions and passkey challenges, link approvals past their expiry (docs/api.md, Compatibility), rate-limit counters
// of windows that have ended, spent DPoP proofs past their window (lib/oauth/dpop.ts), completed
// identity provider flows past their lifetime (lib/identity/spent-flows.ts), mail sent or given up
// a week ago and mailed links a week past their expiry (lib/email/outbox.ts), team invitations a
// week past their end (accepted, revoked or expired: lib/teams/invitations.ts), activity
// events ACTIVITY_RETENTION_DAYS old, and OAuth logins past their end with their refresh tokens;
// and records in the activity the inits that expired undecided, before deleting them. Every
// instance may run it; every step is idempotent.

export type SweepResult = {
  webhookMessages: number;
  inits: number;
  pollClocks: number;
  sessions: number;
  passkeyChallenges: number;
  linkApprovals: number;
  rateLimits: number;
  expiries: number;
  activityEvents: number;
  oauthLogins: number;
  dpopProofs: number;
  oidcCallbacks: number;
  emails: number;
  invitations: number;
};

export async function sweep(cfg: Config, now = Date.now()): Promise<SweepResult> {
  const prisma = await db();
  const initCutoff = new Date(now - cfg.initRetentionMs);
  // Existing clients keep using an init's id as its project's: that outlives the init.
  await keepProjectAliases(initCutoff);
  const expiries = await recordExpiries(cfg, now);
  const inits = await prisma.init.deleteMany({ where: { expiresAt: { lt: initCutoff } } });
  const pollClocks = await sweepPollClocks();
  const sessions = await prisma.session.deleteMany({ where: { expiresAt: { lt: new Date(now) } } });
  const passkeyChallenges = await sweepPasskeyChallenges(now);
  const linkApprovals = await sweepLinkApprovals(now);
  let rateLimits = 0;
  for (const rule of Object.values(limitRules(cfg))) rateLimits += await sweepEndedWindows(rule, now);
  const activityEvents = await deleteOldActivity(cfg, now);
  // An OAuth login past its end, with its refresh tokens (its access tokens ended with it).
  const oauthLogins = await prisma.oAuthLogin.deleteMany({ where: { expiresAt: { lt: new Date(now) } } });
  const dpopProofs = await sweepDpopProofs(now);
  const oidcCallbacks = await sweepSpentFlows(now);
  const emails = await sweepOutbox(now);
  const invitations = await sweepInvitations(now);
  const webhookMessages = await sweepWebhookMessages(now);
  return { webhookMessages, inits: inits.count, pollClocks, sessions: sessions.count, passkeyChallenges, linkApprovals, rateLimits, expiries, activityEvents, oauthLogins: oauthLogins.count, dpopProofs, oidcCallbacks, emails, invitations };
}
