import type { Config } from "../config";
import { seal } from "../crypto/sealed";
import type { Database } from "../database/db";

// The mail of a team invitation (lib/teams/invitations.ts). Its link carries the token in the
// fragment (/teams/join#token=…), as the account's own mailed links do (lib/email/email-links.ts).

export const INVITATION_PAGE = "/teams/join";

export const invitationUrl = (cfg: Config, token: string) => `${cfg.appUrl}${INVITATION_PAGE}#token=${token}`;

/** What the sealed token is bound to: its outbox row, so a token copied into another row fails to open. */
export const invitationTokenBinding = (outboxId: string) => `team-invitation:${outboxId}`;

/**
 * The statement that puts the invitation's mail in the outbox, sent from the inviting admin's
 * account; run after the invitation's own conditional insert in one transaction, it writes only
 * if that insert did, so a refused invitation leaves no mail behind.
 */
export function invitationMailStatement(cfg: Config, prisma: Database, mail: { outboxId: string; inviterId: string; to: string; token: string; invitationId: string; now: Date }) {
  const sealed = seal(cfg.masterKey, Buffer.from(mail.token), invitationTokenBinding(mail.outboxId));
  return prisma.$executeRaw`
    INSERT INTO "OutboxEmail" ("id", "userId", "kind", "to", "sealedToken", "teamInvitationId", "createdAt", "nextAttemptAt")
    SELECT ${mail.outboxId}, ${mail.inviterId}, 'team_invitation', ${mail.to}, ${sealed}, i."id", ${mail.now}, ${mail.now}
    FROM "TeamInvitation" i WHERE i."id" = ${mail.invitationId}`;
}
