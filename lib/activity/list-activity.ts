import { z } from "zod";
import { db } from "../database/db";
import { addressesDiffer } from "../ip-address";
import { ACTIVITY_KINDS, type ActivityKind } from "./activity-kinds";

// The activity page's list: an account's events, newest first, a page at a time. A page ends
// where the next begins (its last event's time and id), so events written meanwhile neither
// repeat nor go missing from one page to the next.

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
  /** The address the request came from is not the one the client reported. */
  addressMismatch: boolean;
};

export type ActivityPage = { entries: ActivityEntry[]; olderCursor: string | null };

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
export async function listActivity(userId: string, cursor: string | undefined, pageSize = ACTIVITY_PAGE_SIZE): Promise<ActivityPage> {
  const prisma = await db();
  const after = cursorSchema.safeParse(cursor);
  const older = after.success
    ? { OR: [{ occurredAt: { lt: after.data.occurredAt } }, { occurredAt: after.data.occurredAt, id: { lt: after.data.id } }] }
    : {};
  const rows = await prisma.activityEvent.findMany({
    where: { userId, ...older },
    orderBy: [{ occurredAt: "desc" }, { id: "desc" }],
    take: pageSize + 1,
    omit: { userId: true },
  });
  const entries = rows.slice(0, pageSize).flatMap(({ projectId, projectName, kind, ...row }) =>
    // A kind this version does not know (written by a newer one) is left out, not misnamed.
    isKind(kind)
      ? [{ ...row, kind, project: projectId === null ? null : { id: projectId, name: projectName ?? projectId }, addressMismatch: addressesDiffer(row.senderIp, row.observedIp) }]
      : [],
  );
  const last = rows.length > pageSize ? rows[pageSize - 1] : undefined;
  return { entries, olderCursor: last === undefined ? null : `${last.occurredAt.getTime()}.${last.id}` };
}
