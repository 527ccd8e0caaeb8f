import { db } from "../database/db";
import { RANDOM_ID_PATTERN } from "../secrets";
import { addressesDiffer } from "../ip-address";
import { effectiveStatus, type InitStatus } from "./init-lifecycle";

/** What the init page shows of an init: what the client reported and what the server saw. */
export type InitView = {
  id: string;
  sender: string;
  senderDevice: string | null;
  senderOs: string | null;
  senderIp: string | null;
  observedIp: string | null;
  /** The reported and the observed address are both known and are different addresses. */
  addressMismatch: boolean;
  status: InitStatus;
  intervalMs: number;
  createdAt: number;
  expiresAt: number;
  userCode: string;
  /** The client prints the code: Approve needs it typed (lib/init/code-check-mode.ts). */
  userCodeShown: boolean;
  approvedById: string | null;
  deniedById: string | null;
  project: { id: string; name: string } | null;
};

export async function findInitView(id: string): Promise<InitView | null> {
  if (!RANDOM_ID_PATTERN.test(id)) return null;
  const prisma = await db();
  const init = await prisma.init.findUnique({
    where: { id },
    select: {
      id: true,
      sender: true,
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
      project: { select: { id: true, name: true } },
    },
  });
  if (init === null) return null;
  return {
    ...init,
    addressMismatch: addressesDiffer(init.senderIp, init.observedIp),
    status: effectiveStatus(init.status, init.expiresAt, Date.now()),
    createdAt: init.createdAt.getTime(),
    expiresAt: init.expiresAt.getTime(),
  };
}
