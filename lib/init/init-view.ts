import { db } from "../database/db";
import { RANDOM_ID_PATTERN } from "../secrets";
import { reportedAddressFlagged } from "../ip-address";
import { effectiveStatus, type InitStatus } from "./init-lifecycle";

// What the init page shows of an init, and to whom. The id alone is in the page's URL and may
// leak (SECURITY.md, "Stolen init id"): it shows the status and the application's name, never
// the client's device or addresses (an IP address is personal data).

/** What the client reported beyond its name, and the address its request came from. */
export type ClientDetails = {
  senderDevice: string | null;
  senderOs: string | null;
  senderIp: string | null;
  observedIp: string | null;
  /** The reported address is a public address that is not the observed one (lib/ip-address.ts, reportedAddressFlagged). */
  addressMismatch: boolean;
};

export type InitView = {
  id: string;
  sender: string;
  /** What the client says the access is for, in its own words (Create Init's binding_message). */
  bindingMessage: string | null;
  status: InitStatus;
  intervalMs: number;
  createdAt: number;
  expiresAt: number;
  userCode: string;
  /** The client prints the code: Approve needs it typed (lib/init/code-check-mode.ts). */
  userCodeShown: boolean;
  approvedById: string | null;
  deniedById: string | null;
  /** When it was approved or denied (milliseconds since the epoch); null while undecided. */
  decidedAt: number | null;
  project: { id: string; name: string } | null;
  /** Null when the viewer may not see them (mayShowDetails). */
  details: ClientDetails | null;
};

/**
 * Whether `viewerId` (null: signed out) may see the client's details: while the init is pending,
 * any signed-in account, which may decide it and needs them to; once decided, only the account
 * that decided; once expired, nobody.
 */
export function mayShowDetails(status: InitStatus, decidedBy: { approvedById: string | null; deniedById: string | null }, viewerId: string | null): boolean {
  if (viewerId === null) return false;
  if (status === "pending") return true;
  if (status === "done") return decidedBy.approvedById === viewerId;
  if (status === "denied") return decidedBy.deniedById === viewerId;
  return false;
}

/** The init as `viewerId` (null: signed out) may see it on its page. */
export async function findInitView(id: string, viewerId: string | null): Promise<InitView | null> {
  if (!RANDOM_ID_PATTERN.test(id)) return null;
  const prisma = await db();
  const init = await prisma.init.findUnique({
    where: { id },
    select: {
      id: true,
      sender: true,
      bindingMessage: true,
      senderDevice: true,
      senderOs: true,
      senderIp: true,
      observedIp: true,
      status: true,
      intervalMs: true,
      createdAt: true,
      expiresAt: true,
      userCode: true,
      userCodeShown: true,
      approvedById: true,
      deniedById: true,
      decidedAt: true,
      project: { select: { id: true, name: true } },
    },
  });
  if (init === null) return null;
  const { senderDevice, senderOs, senderIp, observedIp, ...rest } = init;
  const status = effectiveStatus(init.status, init.expiresAt, Date.now());
  return {
    ...rest,
    status,
    createdAt: init.createdAt.getTime(),
    expiresAt: init.expiresAt.getTime(),
    decidedAt: init.decidedAt?.getTime() ?? null,
    details: mayShowDetails(status, init, viewerId) ? { senderDevice, senderOs, senderIp, observedIp, addressMismatch: reportedAddressFlagged(senderIp, observedIp) } : null,
  };
}
