import { z } from "zod";
import { db } from "../database/db";
import type { Prisma } from "../generated/prisma/client";
import { reportedAddressFlagged } from "../ip-address";
import { ACTIVITY_KINDS, type ActivityKind } from "./activity-kinds";

// The activity page's list: an account's events, newest first, a page at a time. A page ends
// where the next begins (its last event's time and id), so events written meanwhile neither
// repeat nor go missing from one page to the next. Within a page, the events of one login (an
// init opened, decided, its token collected, the links that token made) form one entry.

const ACTIVITY_PAGE_SIZE = 50;

export type ActivityEntry = {
  id: string;
  kind: ActivityKind;
  subjectId: string;
  occurredAt: Date;
  project: { id: string; name: string } | null;
  sender: string | null;
  senderDevice: string | null;
  senderOs: string | null;
  senderIp: string | null;
  observedIp: string | null;
  observedUserAgent: string | null;
  tokenName: string | null;
  iv: string | null;
  decidedBy: string | null;
  passkeyName: string | null;
  /** The identity provider (its issuer) signed in with, linked or unlinked. */
  provider: string | null;
  /** An approval: the access lifetime the person chose (null before the choice existed). */
  accessLifetimeSeconds: number | null;
  /** A team's event: the team as it was named then, the member or invited address concerned, the role given. */
  teamId: string | null;
  teamName: string | null;
  memberEmail: string | null;
  role: string | null;
  /** The client reported a public address that is not the one its request came from (never for a person's decision). */
  addressMismatch: boolean;
};

/**
 * One entry of the page: the events of one login (`initId`), oldest first, or a single event
 * of anything else (`initId` null). Entries are ordered by their newest event, newest first.
 */
export type ActivityGroup = { initId: string | null; events: ActivityEntry[] };

export type ActivityPage = { entries: ActivityEntry[]; groups: ActivityGroup[]; olderCursor: string | null };

// These events' subject is the init; a link's init is found through the access token it used.
const INIT_SUBJECT_KINDS: ReadonlySet<ActivityKind> = new Set(["init_opened", "init_approved", "init_denied", "init_expired", "token_collected", "approval_reported"]);

// A decision records the deciding browser's address, not the client's: nothing to compare.
const PERSON_OBSERVED_KINDS: ReadonlySet<ActivityKind> = new Set(["init_approved", "init_denied", "approval_reported"]);

/**
 * The init of each new link among `entries`, while the init that issued the link's access token
 * is kept (the sweep deletes inits; a link whose init is gone stands on its own).
 */
async function initsOfLinks(entries: ActivityEntry[]): Promise<Map<string, string>> {
  const linkIds = entries.filter((entry) => entry.kind === "link_created").map((entry) => entry.subjectId);
  if (linkIds.length === 0) return new Map();
  const prisma = await db();
  const links = await prisma.projectLink.findMany({ where: { id: { in: linkIds } }, select: { id: true, accessTokenId: true } });
  const inits = await prisma.init.findMany({ where: { accessTokenId: { in: links.map((link) => link.accessTokenId) } }, select: { id: true, accessTokenId: true } });
  const initOfToken = new Map(inits.map((init) => [init.accessTokenId, init.id]));
  return new Map(links.flatMap((link) => (initOfToken.has(link.accessTokenId) ? [[link.id, initOfToken.get(link.accessTokenId)!] as const] : [])));
}

/** `entries` (newest first) as the page's entries: a login's events together, oldest first. */
export function groupByLogin(entries: ActivityEntry[], initOfLink: ReadonlyMap<string, string>): ActivityGroup[] {
  const groups: ActivityGroup[] = [];
  const logins = new Map<string, ActivityGroup>();
  for (const entry of entries) {
    const initId = INIT_SUBJECT_KINDS.has(entry.kind) ? entry.subjectId : entry.kind === "link_created" ? (initOfLink.get(entry.subjectId) ?? null) : null;
    const login = initId === null ? undefined : logins.get(initId);
    if (login !== undefined) {
      login.events.unshift(entry);
      continue;
    }
    const group = { initId, events: [entry] };
    groups.push(group);
    if (initId !== null) logins.set(initId, group);
  }
  return groups;
}

// "<milliseconds>.<event id>": where the next page starts.
const cursorSchema = z
  .string()
  .max(200)
  .regex(/^\d{1,15}\.[A-Za-z0-9_.-]{1,150}$/)
  .transform((cursor) => {
    const dot = cursor.indexOf(".");
    return { occurredAt: new Date(Number(cursor.slice(0, dot))), id: cursor.slice(dot + 1) };
  });

const isKind = (kind: string): kind is ActivityKind => (ACTIVITY_KINDS as readonly string[]).includes(kind);

/** A page of the account's activity, from the start or after `cursor` (an olderCursor); a cursor that is not one reads as the start. */
export function listActivity(userId: string, cursor: string | undefined, pageSize = ACTIVITY_PAGE_SIZE): Promise<ActivityPage> {
  return listEvents({ userId }, cursor, pageSize);
}

/** A page of the events `scope` selects (an account's, a team's: lib/teams/team-activity-list.ts), as listActivity. */
export async function listEvents(scope: Prisma.ActivityEventWhereInput, cursor: string | undefined, pageSize = ACTIVITY_PAGE_SIZE): Promise<ActivityPage> {
  const prisma = await db();
  const after = cursorSchema.safeParse(cursor);
  const older = after.success
    ? { OR: [{ occurredAt: { lt: after.data.occurredAt } }, { occurredAt: after.data.occurredAt, id: { lt: after.data.id } }] }
    : {};
  const rows = await prisma.activityEvent.findMany({
    where: { AND: [scope, older] },
    orderBy: [{ occurredAt: "desc" }, { id: "desc" }],
    take: pageSize + 1,
    omit: { userId: true },
  });
  const entries = rows.slice(0, pageSize).flatMap(({ projectId, projectName, kind, ...row }) =>
    // A kind this version does not know (written by a newer one) is left out, not misnamed.
    isKind(kind)
      ? [
          {
            ...row,
            kind,
            project: projectId === null ? null : { id: projectId, name: projectName ?? projectId },
            addressMismatch: !PERSON_OBSERVED_KINDS.has(kind) && reportedAddressFlagged(row.senderIp, row.observedIp),
          },
        ]
      : [],
  );
  const last = rows.length > pageSize ? rows[pageSize - 1] : undefined;
  return { entries, groups: groupByLogin(entries, await initsOfLinks(entries)), olderCursor: last === undefined ? null : `${last.occurredAt.getTime()}.${last.id}` };
}
