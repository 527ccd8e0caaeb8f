import type { Database } from "../database/db";
import { Prisma } from "../generated/prisma/client";
import type { ActivityKind } from "../activity/activity-kinds";
import type { ActivityRecord } from "../activity/record-activity";
import { randomId } from "../secrets";
import type { TeamRole } from "./roles";

// A team's events in the acting account's activity, with the team's id so that its admins and
// owners see them in the team's activity (lib/activity/list-activity.ts). As every activity
// statement (lib/activity/record-activity.ts), it writes only if `condition` shows the change in
// the rows of the same transaction, so an event exists if and only if its change commits.

export type TeamEventKind = Extract<
  ActivityKind,
  "team_created" | "team_renamed" | "team_deleted" | "member_invited" | "invitation_revoked" | "member_joined" | "member_role_changed" | "member_removed" | "member_left" | "project_moved_to_team"
>;

export type TeamEvent = {
  kind: TeamEventKind;
  actorId: string;
  teamId: string;
  /** The change's own id (an invitation's, a membership change's mark): one event per change. */
  subjectId: string;
  /** The member or invited address concerned, the member's account, and the role given. */
  memberEmail?: string;
  memberId?: string;
  role?: TeamRole;
  /** A project moved into the team. */
  projectId?: string;
};

export function teamEventRecord(prisma: Database, event: TeamEvent, condition: Prisma.Sql): ActivityRecord {
  const project = event.projectId ?? null;
  return prisma.$executeRaw`
    INSERT INTO "ActivityEvent" ("id", "userId", "kind", "subjectId", "occurredAt", "teamId", "teamName", "memberEmail", "memberId", "role", "decidedBy", "projectId", "projectName")
    SELECT ${randomId()}, u."id", ${event.kind}, ${event.subjectId}, ${new Date()}, t."id", t."name", ${event.memberEmail ?? null}, ${event.memberId ?? null}, ${event.role ?? null}, u."email", ${project}, (SELECT p."name" FROM "Project" p WHERE p."id" = ${project})
    FROM "Team" t JOIN "User" u ON u."id" = ${event.actorId}
    WHERE t."id" = ${event.teamId} AND ${condition}
    ON CONFLICT DO NOTHING`;
}

/** An SQL condition: `userId` is in the team with one of `roles` (as the transaction sees it now). */
export const memberWithRoleSql = (teamId: string, userId: string, roles: readonly TeamRole[]): Prisma.Sql =>
  Prisma.sql`EXISTS (SELECT 1 FROM "TeamMember" m WHERE m."teamId" = ${teamId} AND m."userId" = ${userId} AND m."role" IN (${Prisma.join([...roles])}))`;

/** Locks the team's row until the transaction ends: changes of its members and owners take turns. */
export const lockTeamStatement = (prisma: Database, teamId: string) => prisma.$executeRaw`UPDATE "Team" SET "name" = "name" WHERE "id" = ${teamId}`;
