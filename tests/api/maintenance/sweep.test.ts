import { describe, expect, it } from "vitest";
import { config } from "@/lib/config";
import { db } from "@/lib/database/db";
import { consumeRateLimit } from "@/lib/limits/rate-limit";
import { limitRules } from "@/lib/limits/rules";
import { sweep } from "@/lib/maintenance/sweep";
import { hashSecret, randomId, randomSecret } from "@/lib/secrets";
import { createdInit, getInitStatus, pollClocks, rateLimitCounter, setRateLimitWindow } from "../../helpers/api";
import { newAccount } from "../../helpers/forms";
import { loggedIn, refresh } from "../../helpers/oauth";

describe("the sweeper", () => {
  it("deletes inits a day past expiry with their poll clocks, expired sessions and ended rate-limit windows, and nothing else", async () => {
    const prisma = await db();
    const old = await createdInit();
    const recent = await createdInit();
    const live = await createdInit();
    await getInitStatus(old.id);
    const now = Date.now();
    await prisma.init.update({ where: { id: old.id }, data: { expiresAt: new Date(now - config().initRetentionMs - 1000) } });
    await prisma.init.update({ where: { id: recent.id }, data: { expiresAt: new Date(now - 60_000) } });
    const stale = await newAccount();
    const fresh = await newAccount();
    const staleUser = await prisma.user.findUniqueOrThrow({ where: { email: stale.email } });
    await prisma.session.updateMany({ where: { userId: staleUser.id }, data: { expiresAt: new Date(now - 1000) } });
    const rule = limitRules(config()).createInit;
    await consumeRateLimit(rule, "198.51.100.1");
    await setRateLimitWindow(`${rule.name}:198.51.100.1`, BigInt(Math.floor(now / rule.windowMs) - 1));
    await consumeRateLimit(rule, "198.51.100.2");

    const removed = await sweep(config(), now);
    // Other counters of this test (sign-ups, Create Init) may have just seen a minute end too.
    expect(removed).toMatchObject({ inits: 1, pollClocks: 1, sessions: 1 });
    expect(removed.rateLimits).toBeGreaterThanOrEqual(1);
    expect(await rateLimitCounter(`${rule.name}:198.51.100.1`)).toBeNull();
    expect(await prisma.init.findUnique({ where: { id: old.id } })).toBeNull();
    expect(await pollClocks(old.id)).toEqual([]);
    expect(await prisma.init.count({ where: { id: { in: [recent.id, live.id] } } })).toBe(2);
    // A late poll of a recently expired init still reads `expired`.
    expect((await (await getInitStatus(recent.id, { "user-agent": "late" })).json()).status).toBe("expired");
    const freshUser = await prisma.user.findUniqueOrThrow({ where: { email: fresh.email } });
    expect(await prisma.session.count({ where: { userId: freshUser.id } })).toBe(1);
    expect(await rateLimitCounter(`${rule.name}:198.51.100.2`)).not.toBeNull();
    expect(await sweep(config(), now)).toEqual({ webhookMessages: 0, inits: 0, pollClocks: 0, sessions: 0, passkeyChallenges: 0, linkApprovals: 0, rateLimits: 0, expiries: 0, activityEvents: 0, oauthLogins: 0, dpopProofs: 0, oidcCallbacks: 0, emails: 0, invitations: 0 });
  });

  it("deletes the spent states of identity provider flows past their lifetime, and keeps the others", async () => {
    const prisma = await db();
    const now = Date.now();
    const [ended, live] = [hashSecret(randomSecret()), hashSecret(randomSecret())];
    await prisma.oidcCallback.create({ data: { id: ended, expiresAt: new Date(now - 1000) } });
    await prisma.oidcCallback.create({ data: { id: live, expiresAt: new Date(now + 600_000) } });
    expect(await sweep(config(), now)).toMatchObject({ oidcCallbacks: 1 });
    expect((await prisma.oidcCallback.findMany({ where: { id: { in: [ended, live] } }, select: { id: true } })).map((row) => row.id)).toEqual([live]);
  });

  it("deletes an OAuth login past its end with its refresh tokens, and keeps a live one", async () => {
    const ended = await loggedIn("Ended login");
    const live = await loggedIn("Live login");
    const prisma = await db();
    await prisma.oAuthLogin.updateMany({ where: { userId: ended.userId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await sweep(config(), Date.now())).toMatchObject({ oauthLogins: 1 });
    expect(await prisma.oAuthLogin.count({ where: { userId: ended.userId } })).toBe(0);
    expect(await prisma.refreshToken.count({ where: { login: { userId: ended.userId } } })).toBe(0);
    expect(await prisma.refreshToken.count({ where: { accessToken: { userId: ended.userId } } })).toBe(0);
    expect((await refresh(live.tokens.refresh_token)).status).toBe(200);
    expect((await refresh(ended.tokens.refresh_token)).status).toBe(400);
  });

  it("deletes team invitations a week past their end (expired, accepted or revoked), and keeps open and recent ones", async () => {
    const prisma = await db();
    const now = Date.now();
    const day = 24 * 60 * 60_000;
    const team = randomId();
    await prisma.team.create({ data: { id: team, name: "Sweep", createdAt: new Date(now) } });
    const invitation = (id: string, at: Partial<Record<"expiresAt" | "acceptedAt" | "revokedAt", Date>>) =>
      prisma.teamInvitation.create({
        data: { id, teamId: team, email: `${id}@example.com`, role: "member", tokenHash: hashSecret(randomSecret()), invitedBy: "owner@example.com", createdAt: new Date(now - 20 * day), expiresAt: new Date(now + day), ...at },
      });
    const [expired, accepted, revoked, open, recent] = [randomId(), randomId(), randomId(), randomId(), randomId()];
    await invitation(expired, { expiresAt: new Date(now - 8 * day) });
    await invitation(accepted, { acceptedAt: new Date(now - 8 * day) });
    await invitation(revoked, { revokedAt: new Date(now - 8 * day) });
    await invitation(open, {});
    await invitation(recent, { expiresAt: new Date(now - day) });
    expect((await sweep(config(), now)).invitations).toBeGreaterThanOrEqual(3);
    const left = await prisma.teamInvitation.findMany({ where: { teamId: team }, select: { id: true } });
    expect(left.map((row) => row.id).sort()).toEqual([open, recent].sort());
  });
});
