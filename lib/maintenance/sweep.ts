import type { Config } from "../config";
import { db } from "../db";
import { sweepPollClocks } from "../init/poll-interval";
import { limitRules } from "../limits/rules";

// Deletes what the service no longer needs, so the database does not grow without bound:
// inits (with their secrets' hashes and poll clocks) INIT_RETENTION_SECONDS after they expired,
// expired sessions, and rate-limit counters of windows that have ended. Every instance may run
// it; the deletes are idempotent.

export type SweepResult = { inits: number; pollClocks: number; sessions: number; rateLimits: number };

export async function sweep(cfg: Config, now = Date.now()): Promise<SweepResult> {
  const prisma = await db();
  const inits = await prisma.init.deleteMany({ where: { expiresAt: { lt: new Date(now - cfg.initRetentionMs) } } });
  const pollClocks = await sweepPollClocks(cfg);
  const sessions = await prisma.session.deleteMany({ where: { expiresAt: { lt: new Date(now) } } });
  let rateLimits = 0;
  for (const rule of Object.values(limitRules(cfg))) {
    const current = Math.floor(now / rule.windowMs);
    const ended = await prisma.rateLimit.deleteMany({ where: { key: { startsWith: `${rule.name}:` }, window: { lt: current } } });
    rateLimits += ended.count;
  }
  return { inits: inits.count, pollClocks, sessions: sessions.count, rateLimits };
}
