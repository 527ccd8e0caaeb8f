import fc from "fast-check";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as moveProjectRoute } from "@/app/projects/[id]/move/route";
import { POST as createTeamRoute } from "@/app/teams/create/route";
import { POST as renameTeamRoute } from "@/app/teams/[id]/rename/route";
import { POST as inviteMemberRoute } from "@/app/teams/[id]/invitations/create/route";
import { POST as changeRoleRoute } from "@/app/teams/[id]/members/[userId]/role/route";
import { POST as removeMemberRoute } from "@/app/teams/[id]/members/[userId]/remove/route";
import { POST as acceptInvitationRoute } from "@/app/teams/join/accept/route";
import { config } from "@/lib/config";
import { db } from "@/lib/database/db";
import { EMAIL_MAX, TEAM_NAME_MAX } from "@/lib/field-lengths";
import { INVITATIONS_PER_TEAM, limitRules, NEW_TEAMS_PER_ACCOUNT } from "@/lib/limits/rules";
import { hashSecret, randomId, randomSecret } from "@/lib/secrets";
import { INVITATION_LIFETIME_MS } from "@/lib/teams/invitations";
import type { TeamRole } from "@/lib/teams/roles";
import { startInFreshWindow } from "../../helpers/clock";
import { COOKIE_NAME } from "../../helpers/forms";
import {
  assertHostile,
  assertHostileForm,
  expectSuccesses,
  formPairsArb,
  HOSTILE_ATOMS,
  hostileTextArb,
  NUM_RUNS,
  pathParam,
  preview,
  PROPERTY_TIMEOUT_MS,
  SEED,
  segmentArb,
  urlEncoded,
  type BodySpec,
  type FormField,
} from "../../helpers/hostile";
import { anyPost, OWN_PAGE, ownPagePost, postForm, signedInPersonWithTeams, type FormInput } from "../../helpers/hostile-forms";

// Hostile input through HTTP, property-based: generated team ids, member ids, invitation tokens,
// fields, bodies, content types, origins, cookies and headers thrown at the teams' forms
// (lib/api/operations/teams.ts): the new-team form, a team's Rename, invite, role and remove
// forms, the invitation page's Join button, and the project page's "Move to a team". Every
// request posts as the fixture's person, who owns a team with a second member, is a plain member
// of another person's team, and is not in a third. Seed, number of runs, each form's documented
// codes and the checks (a refusal writes nothing: the fingerprint covers Team, TeamMember and
// TeamInvitation): tests/helpers/hostile/.
//
// A success changes what the next request meets (a member removed, the last owner demoted, a
// project moved, an invitation spent), so the forms whose successes would wear the fixture out
// restore it in their `prepare` step, before each request's fingerprint is taken: each request
// meets the same teams, and the count of successes stays that of the fixed seed.

/** Renames (a 303 without error=) of the 1,000 requests, about half the fixed seed's count: a route that refuses everything must fail the property. */
const MIN_RENAMED = 115;
/** Role changes of the 1,000 requests, about half the fixed seed's count. */
const MIN_ROLES_CHANGED = 35;
/** Members removed or the person leaving, of the 1,000 requests, about half the fixed seed's count. */
const MIN_REMOVED = 45;
/** Invitations accepted of the 1,000 requests, about half the fixed seed's count. */
const MIN_JOINED = 100;
/** Projects moved into a team of the 1,000 requests, about half the fixed seed's count. */
const MIN_MOVED = 50;

let fixture: Awaited<ReturnType<typeof signedInPersonWithTeams>>;

beforeAll(async () => {
  fixture = await signedInPersonWithTeams();
  // Without SMTP_URL an invitation queues no mail: no outbox sends in the background, which a
  // later refused request would be blamed for (the invite form's answer says emailed: false).
  expect(config().email).toBeNull();
}, 120_000);

afterEach(() => {
  vi.useRealTimers();
});

/**
 * Marks the person's session seen now. A signed-in request marks its session seen once 5 minutes
 * have passed since the last mark (lib/auth/sessions.ts): the one write a refused request makes
 * by design. Done before each property, so that neither this file's earlier properties nor a
 * clock moved to the next window (startInFreshWindow) make a refusal write that mark.
 */
async function sessionSeenNow(): Promise<void> {
  const prisma = await db();
  await prisma.session.updateMany({ where: { userId: fixture.userId }, data: { lastSeenAt: new Date() } });
}

/** One in three: a post as this site's page; else anything. */
function formInputArb(fields: fc.Arbitrary<FormField[]>, hugePrefix: string): fc.Arbitrary<FormInput> {
  const encoded = fields.map((pairs): BodySpec => ({ kind: "text", text: urlEncoded(pairs) }));
  const ownPage: fc.Arbitrary<FormInput> = fc.record(ownPagePost(fc.constantFrom(...OWN_PAGE), fc.constant(`${COOKIE_NAME}={session}`), encoded));
  return fc.oneof({ arbitrary: ownPage, weight: 1 }, { arbitrary: fc.record(anyPost(fields, hugePrefix)), weight: 2 });
}

/** A path segment as generated: sent encoded, or (`raw`) as it is when it is itself a path segment. */
type Segment = { segment: string; raw: boolean };

/** Mostly `usual`; else one of `known` (the fixture's real ids), a near miss of one, or something hostile. */
const segmentOf = (usual: string, known: string[]): fc.Arbitrary<Segment> =>
  fc.oneof(
    { arbitrary: fc.constant({ segment: usual, raw: false }), weight: 3 },
    { arbitrary: fc.record({ segment: segmentArb(known), raw: fc.boolean() }), weight: 2 },
  );

/** The sessions a generated cookie's placeholders stand for, and the secrets no Location may carry. */
const signedIn = () => ({ sessions: { session: fixture.session, signedOut: fixture.signedOut }, secrets: [fixture.session, fixture.signedOut] });

/** A team's name: mostly a real one, else empty, too long, hostile or missing. */
const teamNameArb = () =>
  fc.oneof(
    { arbitrary: fc.string({ minLength: 1, maxLength: 40 }).filter((name) => name.trim() !== ""), weight: 4 },
    { arbitrary: fc.constantFrom("", "   ", "n".repeat(TEAM_NAME_MAX), "n".repeat(TEAM_NAME_MAX + 1), ...HOSTILE_ATOMS), weight: 1 },
    { arbitrary: hostileTextArb(), weight: 1 },
    { arbitrary: fc.constant(undefined), weight: 1 },
  );

/** A role field: mostly one of the three, else near misses, hostile text or none. */
const roleFieldArb = () =>
  fc.oneof(
    { arbitrary: fc.constantFrom("member", "admin", "owner"), weight: 4 },
    { arbitrary: fc.constantFrom("", "Owner", "OWNER", " owner", "owner ", "root", "viewer", "owner,admin", "__proto__"), weight: 1 },
    { arbitrary: hostileTextArb(), weight: 1 },
    { arbitrary: fc.constant(undefined), weight: 1 },
  );

/** The invitations the Join button's property makes before each request that names one. */
type InvitationKind = "token" | "any" | "mismatch" | "used" | "revoked" | "expired" | "joined";
type InvitationRow = { teamId: string; email: string; anyEmail?: boolean; acceptedAt?: Date; acceptedById?: string; revokedAt?: Date; createdAt?: Date; expiresAt?: Date };

/** The person's memberships as every request of the role and remove forms meets them: owner of their team with the member at `memberRole`, a member of the joined team. */
async function restoreMemberships(memberRole: TeamRole): Promise<void> {
  const { ownTeam, joinedTeam, userId, otherId, member } = fixture;
  const wanted: [teamId: string, userId: string, role: TeamRole][] = [
    [ownTeam, userId, "owner"],
    [ownTeam, member.userId, memberRole],
    [joinedTeam, otherId, "owner"],
    [joinedTeam, userId, "member"],
  ];
  const prisma = await db();
  const rows = await prisma.teamMember.findMany({ where: { teamId: { in: [ownTeam, joinedTeam] } }, select: { teamId: true, userId: true, role: true } });
  for (const [teamId, memberId, role] of wanted) {
    if (rows.some((row) => row.teamId === teamId && row.userId === memberId && row.role === role)) continue;
    await prisma.teamMember.upsert({ where: { teamId_userId: { teamId, userId: memberId } }, create: { teamId, userId: memberId, role, joinedAt: new Date() }, update: { role } });
  }
}

describe("hostile input through HTTP: the teams' forms", () => {
  it(
    `POST /teams/create answers ${NUM_RUNS} generated requests (seed ${SEED}) with a 303 on this site, a documented code, and a refusal writes nothing; at most ${NEW_TEAMS_PER_ACCOUNT} teams an hour`,
    async () => {
      // A fresh window of the per-account limit: the fixture's team counts in the one before, so
      // exactly NEW_TEAMS_PER_ACCOUNT requests may succeed, and every valid one after is refused.
      startInFreshWindow(limitRules(config()).newTeamsPerAccount.windowMs);
      await sessionSeenNow();
      const answers = await assertHostileForm("POST /teams/create", formInputArb(formPairsArb({ name: teamNameArb() }), "name="), (input) =>
        postForm(createTeamRoute, { path: "/teams/create", params: {}, shown: "/teams/create", input, ...signedIn() }),
      );
      const created = answers.get("ok") ?? 0;
      expectSuccesses("POST /teams/create", "303 without error=, a team created", created, NEW_TEAMS_PER_ACCOUNT);
      // The limit holds: no more than its number of teams, and the valid requests past it were refused as documented.
      expect(created, "more teams than the hourly limit allows").toBeLessThanOrEqual(NEW_TEAMS_PER_ACCOUNT);
      expect(answers.get("error=rate_limited") ?? 0, "no request was refused past the limit").toBeGreaterThan(0);
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    `POST /teams/{id}/rename answers ${NUM_RUNS} generated requests (seed ${SEED}) with a 303 on this site, a documented code, and a refusal writes nothing`,
    async () => {
      await sessionSeenNow();
      const { ownTeam, othersTeam, joinedTeam } = fixture;
      // Renaming the person's own team succeeds every time; the joined team refuses a member
      // (team_role_required), the other person's and made-up ids are not_found.
      const team = segmentOf(ownTeam, [ownTeam, joinedTeam, othersTeam]);
      const answers = await assertHostileForm(
        "POST /teams/{id}/rename",
        fc.tuple(team, formInputArb(formPairsArb({ name: teamNameArb() }), "name=")).map(([target, input]) => ({ ...input, team: target })),
        (input) => {
          const { inUrl, param } = pathParam(input.team.segment, input.team.raw);
          return postForm(renameTeamRoute, { path: `/teams/${inUrl}/rename`, params: { id: param }, shown: `/teams/{id}/rename id=${JSON.stringify(preview(param))}`, input, ...signedIn() });
        },
      );
      expectSuccesses("POST /teams/{id}/rename", "303 without error=, a team renamed", answers.get("ok") ?? 0, MIN_RENAMED);
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    `POST /teams/{id}/invitations/create answers ${NUM_RUNS} generated requests (seed ${SEED}) as documented (201 JSON, not a 303), and a refusal writes nothing; at most ${INVITATIONS_PER_TEAM} invitations a team an hour`,
    async () => {
      // A fresh window of the per-team limit, as for the new-team form: the fixture's invitation
      // counts in the one before, so exactly INVITATIONS_PER_TEAM invitations may be made.
      startInFreshWindow(limitRules(config()).invitationsPerTeam.windowMs);
      await sessionSeenNow();
      const { ownTeam, othersTeam, joinedTeam, email, member } = fixture;
      const fields = formPairsArb({
        email: fc.oneof(
          { arbitrary: fc.tuple(fc.stringMatching(/^[a-z0-9][a-z0-9.+_-]{0,15}[a-z0-9]$/), fc.constantFrom("example.com", "example.org", "acme.test")).map(([local, domain]) => `${local}@${domain}`), weight: 4 },
          // RFC 5322's odder addresses, which the form's email check mostly refuses.
          { arbitrary: fc.emailAddress().filter((address) => address.length <= EMAIL_MAX), weight: 1 },
          // Inviting someone who is a member already, or oneself, is allowed: accepting is what refuses.
          { arbitrary: fc.constantFrom(member.email, email, member.email.toUpperCase(), "", "not an email", `${"e".repeat(EMAIL_MAX)}@example.com`), weight: 1 },
          { arbitrary: hostileTextArb(), weight: 1 },
          { arbitrary: fc.constant(undefined), weight: 1 },
        ),
        role: roleFieldArb(),
        any_email: fc.oneof({ arbitrary: fc.constantFrom(undefined, "yes"), weight: 4 }, { arbitrary: fc.constantFrom("", "no", "YES", "on", "true"), weight: 1 }, { arbitrary: hostileTextArb(), weight: 1 }),
      });
      // The person's own team takes invitations of every role (they own it); the joined team
      // refuses a member (team_role_required), the other person's and made-up ids are not_found.
      const team = segmentOf(ownTeam, [ownTeam, joinedTeam, othersTeam]);
      // The form answers JSON (its link is shown once, never in a URL), so it is checked as the
      // settings pages' POST /settings/tokens/create is (hostile/token-form.test.ts): a documented
      // status, a JSON body, a documented code, and nothing written by a refusal.
      const answered = await assertHostile(
        "POST /teams/{id}/invitations/create",
        fc.tuple(team, formInputArb(fields, "role=member&email=")).map(([target, input]) => ({ ...input, team: target })),
        (input) => {
          const { inUrl, param } = pathParam(input.team.segment, input.team.raw);
          return postForm(inviteMemberRoute, {
            path: `/teams/${inUrl}/invitations/create`,
            params: { id: param },
            shown: `/teams/{id}/invitations/create id=${JSON.stringify(preview(param))}`,
            input,
            ...signedIn(),
          });
        },
      );
      const invited = answered.get(201) ?? 0;
      expectSuccesses("POST /teams/{id}/invitations/create", "201, an invitation made", invited, INVITATIONS_PER_TEAM);
      expect(invited, "more invitations than the hourly limit allows").toBeLessThanOrEqual(INVITATIONS_PER_TEAM);
      expect(answered.get(429) ?? 0, "no request was refused past the limit").toBeGreaterThan(0);
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    `POST /teams/{id}/members/{userId}/role answers ${NUM_RUNS} generated requests (seed ${SEED}) with a 303 on this site, a documented code, and a refusal writes nothing`,
    async () => {
      await sessionSeenNow();
      const { ownTeam, othersTeam, joinedTeam, userId, otherId, member } = fixture;
      // The person's team, where they are an owner; the joined team, where they may change nothing (team_role_required).
      const team = fc.oneof(
        { arbitrary: fc.constantFrom(ownTeam, ownTeam, ownTeam, joinedTeam).map((segment): Segment => ({ segment, raw: false })), weight: 4 },
        { arbitrary: fc.record({ segment: segmentArb([ownTeam, joinedTeam, othersTeam]), raw: fc.boolean() }), weight: 2 },
      );
      // The member (any role may be given them), the person themselves (owner again succeeds;
      // anything else is last_owner unless the member is an owner too), and the other person
      // (not in the person's team: not_found; in the joined team the person may change nothing).
      const subject = fc.oneof(
        { arbitrary: fc.constantFrom(member.userId, userId).map((segment): Segment => ({ segment, raw: false })), weight: 4 },
        { arbitrary: fc.record({ segment: segmentArb([member.userId, userId, otherId]), raw: fc.boolean() }), weight: 2 },
      );
      // The member's role before the request: as an owner, the person is no longer the last one.
      const before = fc.constantFrom<TeamRole>("member", "member", "admin", "owner");
      const answers = await assertHostileForm(
        "POST /teams/{id}/members/{userId}/role",
        fc
          .tuple(team, subject, before, formInputArb(formPairsArb({ role: roleFieldArb() }), "role="))
          .map(([target, changed, memberRole, input]) => ({ ...input, team: target, subject: changed, memberRole })),
        (input) => {
          const id = pathParam(input.team.segment, input.team.raw);
          const memberId = pathParam(input.subject.segment, input.subject.raw);
          return postForm(changeRoleRoute, {
            path: `/teams/${id.inUrl}/members/${memberId.inUrl}/role`,
            params: { id: id.param, userId: memberId.param },
            shown: `/teams/{id}/members/{userId}/role id=${JSON.stringify(preview(id.param))} userId=${JSON.stringify(preview(memberId.param))}`,
            input,
            ...signedIn(),
          });
        },
        (input) => restoreMemberships(input.memberRole),
      );
      expectSuccesses("POST /teams/{id}/members/{userId}/role", "303 without error=, a role changed", answers.get("ok") ?? 0, MIN_ROLES_CHANGED);
      // The person is their team's only owner whenever the member is not one: demoting themselves is then refused.
      expect(answers.get("error=last_owner") ?? 0, "the last owner was never refused").toBeGreaterThan(0);
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    `POST /teams/{id}/members/{userId}/remove answers ${NUM_RUNS} generated requests (seed ${SEED}) with a 303 on this site, a documented code, and a refusal writes nothing`,
    async () => {
      await sessionSeenNow();
      const { ownTeam, othersTeam, joinedTeam, userId, otherId, member } = fixture;
      // The person's team (removing the member; leaving it only when the member is an owner too),
      // the joined team (leaving it succeeds; removing its owner is team_role_required).
      const team = fc.oneof(
        { arbitrary: fc.constantFrom(ownTeam, ownTeam, joinedTeam).map((segment): Segment => ({ segment, raw: false })), weight: 4 },
        { arbitrary: fc.record({ segment: segmentArb([ownTeam, joinedTeam, othersTeam]), raw: fc.boolean() }), weight: 2 },
      );
      const subject = fc.oneof(
        { arbitrary: fc.constantFrom(member.userId, member.userId, userId, otherId).map((segment): Segment => ({ segment, raw: false })), weight: 4 },
        { arbitrary: fc.record({ segment: segmentArb([member.userId, userId, otherId]), raw: fc.boolean() }), weight: 2 },
      );
      const before = fc.constantFrom<TeamRole>("member", "admin", "owner");
      const keepLinks = fc.oneof({ arbitrary: fc.constantFrom(undefined, "yes"), weight: 4 }, { arbitrary: fc.constantFrom("", "no", "YES", "on"), weight: 1 }, { arbitrary: hostileTextArb(), weight: 1 });
      const answers = await assertHostileForm(
        "POST /teams/{id}/members/{userId}/remove",
        fc
          .tuple(team, subject, before, formInputArb(formPairsArb({ keep_links: keepLinks }), "keep_links="))
          .map(([target, removed, memberRole, input]) => ({ ...input, team: target, subject: removed, memberRole })),
        (input) => {
          const id = pathParam(input.team.segment, input.team.raw);
          const memberId = pathParam(input.subject.segment, input.subject.raw);
          return postForm(removeMemberRoute, {
            path: `/teams/${id.inUrl}/members/${memberId.inUrl}/remove`,
            params: { id: id.param, userId: memberId.param },
            shown: `/teams/{id}/members/{userId}/remove id=${JSON.stringify(preview(id.param))} userId=${JSON.stringify(preview(memberId.param))}`,
            input,
            ...signedIn(),
          });
        },
        // The member removed, or the person gone from a team, comes back before the next request.
        (input) => restoreMemberships(input.memberRole),
      );
      expectSuccesses("POST /teams/{id}/members/{userId}/remove", "303 without error=, a member removed or a team left", answers.get("ok") ?? 0, MIN_REMOVED);
      expect(answers.get("error=last_owner") ?? 0, "the last owner's leaving was never refused").toBeGreaterThan(0);
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    `POST /teams/join/accept answers ${NUM_RUNS} generated requests (seed ${SEED}) with a 303 on this site, a documented code, and a refusal writes nothing`,
    async () => {
      await sessionSeenNow();
      const { ownTeam, otherId, email, member } = fixture;
      const prisma = await db();
      // A team of the other person's that only this property invites to: the person joins it
      // and leaves it again before the next request.
      const inviting = randomId();
      await prisma.team.create({ data: { id: inviting, name: "Inviting", createdAt: new Date(), members: { create: { userId: otherId, role: "owner", joinedAt: new Date() } } } });
      const now = () => new Date();
      const later = (ms: number) => new Date(Date.now() + ms);
      // Each placeholder stands for a fresh invitation, made (directly, as a mailed link's row is
      // in forms-mail.test.ts) before the request that carries it: `{token}` for the person's
      // address, `{any}` for any address, and the refused kinds.
      const KINDS: Record<InvitationKind, InvitationRow> = {
        token: { teamId: inviting, email },
        any: { teamId: inviting, email: "someone-else@example.com", anyEmail: true },
        mismatch: { teamId: inviting, email: "someone-else@example.com" },
        used: { teamId: inviting, email, acceptedAt: now(), acceptedById: member.userId },
        revoked: { teamId: inviting, email, revokedAt: now() },
        expired: { teamId: inviting, email, createdAt: later(-INVITATION_LIFETIME_MS - 60_000), expiresAt: later(-60_000) },
        // The person owns this team already: already_member.
        joined: { teamId: ownTeam, email },
      };
      const kinds = Object.keys(KINDS) as InvitationKind[];
      const placeholder = (kind: InvitationKind) => `%7B${kind}%7D`;
      const token = fc.oneof(
        { arbitrary: fc.constantFrom("{token}", "{token}", "{token}", "{any}"), weight: 4 },
        { arbitrary: fc.constantFrom(...kinds.map((kind) => `{${kind}}`)), weight: 2 },
        { arbitrary: fc.constantFrom("", "A".repeat(43), "A".repeat(42), "x".repeat(44), "short", "{token}{token}"), weight: 1 },
        { arbitrary: hostileTextArb(), weight: 1 },
        { arbitrary: fc.constant(undefined), weight: 1 },
      );
      const answers = await assertHostileForm(
        "POST /teams/join/accept",
        formInputArb(formPairsArb({ token }), "token="),
        (input, tokens: Map<InvitationKind, string>) => {
          // Only a body sent as text carries the placeholders filled in; elsewhere they stay, and are no token.
          let body = input.body;
          if (body.kind === "text") for (const [kind, value] of tokens) body = { ...body, text: body.text.replaceAll(placeholder(kind), value) };
          return postForm(acceptInvitationRoute, { path: "/teams/join/accept", params: {}, shown: "/teams/join/accept", input, body, ...signedIn(), secrets: [...signedIn().secrets, ...tokens.values()] });
        },
        async (input) => {
          // The person is out of the inviting team again (a success before made them a member).
          await prisma.teamMember.deleteMany({ where: { teamId: inviting, userId: fixture.userId } });
          const tokens = new Map<InvitationKind, string>();
          const text = input.body.kind === "text" ? input.body.text : "";
          for (const kind of kinds.filter((name) => text.includes(placeholder(name)))) {
            const value = randomSecret();
            const { createdAt = now(), expiresAt = later(INVITATION_LIFETIME_MS), ...invitation } = KINDS[kind];
            await prisma.teamInvitation.create({ data: { id: randomId(), role: "member", tokenHash: hashSecret(value), invitedBy: "other@example.com", createdAt, expiresAt, ...invitation } });
            tokens.set(kind, value);
          }
          return tokens;
        },
      );
      expectSuccesses("POST /teams/join/accept", "303 without error=, an invitation accepted", answers.get("ok") ?? 0, MIN_JOINED);
      // Each refused kind of invitation was met, and refused with its own code.
      for (const code of ["invitation_invalid", "invitation_used", "invitation_revoked", "invitation_expired", "invitation_email_mismatch", "already_member"]) {
        expect(answers.get(`error=${code}`) ?? 0, `no request was refused with ${code}`).toBeGreaterThan(0);
      }
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    `POST /projects/{id}/move answers ${NUM_RUNS} generated requests (seed ${SEED}) with a 303 on this site, a documented code, and a refusal writes nothing`,
    async () => {
      await sessionSeenNow();
      const { ownProject, othersProject, ownTeam, othersTeam, joinedTeam } = fixture;
      const project = segmentOf(ownProject, [ownProject, othersProject]);
      // The person owns their team (a move succeeds), is a member of the joined team
      // (team_role_required), and not in the other person's (not_found).
      const fields = formPairsArb({
        team: fc.oneof(
          { arbitrary: fc.constant(ownTeam), weight: 4 },
          { arbitrary: fc.constantFrom(joinedTeam, othersTeam), weight: 1 },
          { arbitrary: fc.constantFrom("t".repeat(100), "t".repeat(101)), weight: 1 },
          { arbitrary: segmentArb([ownTeam, joinedTeam, othersTeam]), weight: 1 },
          { arbitrary: hostileTextArb(), weight: 1 },
          { arbitrary: fc.constant(undefined), weight: 1 },
        ),
      });
      // Where the project is before the request: mostly personal; now and then in the person's
      // team already, which a move refuses (a project in a team stays there).
      const inTeam = fc.oneof({ arbitrary: fc.constant(false), weight: 4 }, { arbitrary: fc.constant(true), weight: 1 });
      const prisma = await db();
      const answers = await assertHostileForm(
        "POST /projects/{id}/move",
        fc.tuple(project, inTeam, formInputArb(fields, "team=")).map(([target, moved, input]) => ({ ...input, project: target, moved })),
        (input) => {
          const { inUrl, param } = pathParam(input.project.segment, input.project.raw);
          return postForm(moveProjectRoute, { path: `/projects/${inUrl}/move`, params: { id: param }, shown: `/projects/{id}/move id=${JSON.stringify(preview(param))}`, input, ...signedIn() });
        },
        async (input) => {
          // Written only when the project is elsewhere: most requests find it where the last one left it.
          const elsewhere = input.moved ? { OR: [{ teamId: null }, { teamId: { not: ownTeam } }] } : { teamId: { not: null } };
          await prisma.project.updateMany({ where: { id: ownProject, ...elsewhere }, data: { teamId: input.moved ? ownTeam : null } });
        },
      );
      expectSuccesses("POST /projects/{id}/move", "303 without error=, a project moved into a team", answers.get("ok") ?? 0, MIN_MOVED);
      expect(answers.get("error=team_role_required") ?? 0, "a plain member's move was never refused").toBeGreaterThan(0);
    },
    PROPERTY_TIMEOUT_MS,
  );
});
