import { z } from "zod";
import type { Config } from "../config";
import { db } from "../database/db";
import { SENDER_DEVICE_MAX, SENDER_IP_MAX } from "../field-lengths";
import { reportedAddressFlagged } from "../ip-address";
import { storedKey } from "../projects/project-keys";
import { resolveProjectId } from "../projects/resolve-project";
import { safeText } from "../text";
import { clientIsAsking, linkApprovalState, type LinkApprovalState } from "./link-approval-lifecycle";
import { isLinkIv } from "./schemas";

// What the page /projects/{id}/link/{iv} shows the person deciding about a link request
// (lib/links/link-approval-lifecycle.ts): what the client says about itself (the `metadata` of
// the page's address, which anyone could have written), what the service saw of the client
// asking now, and the project with its key's fingerprint, which the client will be given. The
// person may decide only while a client asks (`asking`).

/** What the client reported in `metadata`: base64 of a JSON object {sender_device, sender_ip}. */
export type ReportedMetadata = { senderDevice: string | null; senderIp: string | null } | "unreadable" | null;

export type LinkApprovalView = {
  project: { id: string; name: string; fingerprint: string | null };
  iv: string;
  reported: ReportedMetadata;
  /** A client asked within the last minute: the person may decide. */
  asking: boolean;
  /** The latest POST of the client asking now (null if none is); flagged when its address is not the reported one. */
  observed: { address: string | null; userAgent: string | null; addressMismatch: boolean } | null;
  /** `not_asked`: no request, or one whose client stopped asking before anyone decided. */
  state: LinkApprovalState | "not_asked" | "linked";
  expiresAt: number | null;
};

const METADATA_MAX = 2048;

const reportedText = (max: number) =>
  safeText(max)
    .nullish()
    .transform((value) => value || null);

const metadataSchema = z.object({ sender_device: reportedText(SENDER_DEVICE_MAX), sender_ip: reportedText(SENDER_IP_MAX) });

function readMetadata(raw: string | null): ReportedMetadata {
  if (raw === null || raw === "") return null;
  if (raw.length > METADATA_MAX || !/^[A-Za-z0-9+/_-]+=*$/.test(raw)) return "unreadable";
  try {
    const parsed = metadataSchema.safeParse(JSON.parse(Buffer.from(raw, "base64").toString("utf8")));
    return parsed.success ? { senderDevice: parsed.data.sender_device, senderIp: parsed.data.sender_ip } : "unreadable";
  } catch {
    return "unreadable";
  }
}

/** The view for a signed-in person; null (a 404) with the switch off, a bad iv, or a project they do not reach. */
export async function findLinkApprovalView(cfg: Config, userId: string, pathProjectId: string, rawIv: string, metadata: string | null): Promise<LinkApprovalView | null> {
  if (!cfg.legacyLinkApproval.enabled || !isLinkIv(rawIv)) return null;
  const iv = rawIv.toLowerCase();
  const projectId = await resolveProjectId(pathProjectId, userId);
  if (projectId === null) return null;
  const prisma = await db();
  const where = { projectId_iv: { projectId, iv } };
  const [project, key, link, approval] = await Promise.all([
    prisma.project.findUnique({ where: { id: projectId }, select: { id: true, name: true } }),
    storedKey(projectId),
    prisma.projectLink.findUnique({ where, select: { id: true } }),
    prisma.linkApproval.findUnique({ where, select: { status: true, expiresAt: true, askedAt: true, observedIp: true, observedUserAgent: true } }),
  ]);
  // Deleted since it was resolved: as if it never existed.
  if (project === null) return null;
  const now = Date.now();
  const reported = readMetadata(metadata);
  const asking = link === null && approval !== null && clientIsAsking(approval.askedAt, now);
  const observed =
    asking && approval !== null
      ? {
          address: approval.observedIp,
          userAgent: approval.observedUserAgent,
          addressMismatch: typeof reported === "object" && reported !== null && reportedAddressFlagged(reported.senderIp, approval.observedIp),
        }
      : null;
  const stored = approval === null ? null : linkApprovalState(approval.status, approval.expiresAt, now);
  const state = link !== null ? "linked" : stored === null || (stored === "waiting" && !asking) ? "not_asked" : stored;
  return {
    project: { ...project, fingerprint: key?.fingerprint ?? null },
    iv,
    reported,
    asking,
    observed,
    state,
    expiresAt: approval === null || stored === "waiting" ? null : approval.expiresAt.getTime(),
  };
}

/** The page's path, keeping the client's metadata, for its forms and the way back to it. */
export function linkApprovalPagePath(projectId: string, iv: string, metadata: string | null): string {
  const path = `/projects/${encodeURIComponent(projectId)}/link/${encodeURIComponent(iv)}`;
  return metadata ? `${path}?metadata=${encodeURIComponent(metadata.slice(0, METADATA_MAX))}` : path;
}
