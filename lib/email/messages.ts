import type { Config } from "../config";
import { unseal } from "../crypto/sealed";
import type { Database } from "../database/db";
import { invitationTokenBinding, invitationUrl } from "./invitation-mail";
import { LINK_LIFETIME_MS, LINK_PAGE, outboxTokenBinding, type EmailLinkPurpose } from "./email-links";
import type { MailMessage } from "./mail-transport";

// The text of each mail, made when it is sent from what the outbox's row names: a link (its
// token unsealed), or a security notice's activity event. Plain text: nothing to render, nothing
// a mail client could load from elsewhere. Each says what happened, where and when, and what to
// do if it was not the reader.

export type OutboxRow = { id: string; kind: string; to: string; sealedToken: string | null; emailLinkId: string | null; teamInvitationId: string | null; activityEventId: string | null };

/** A message to send, or why none is: its link was used or replaced before the mail left, or its event is gone. */
export type Composed = { send: MailMessage } | { drop: string };

const when = (at: Date) => at.toUTCString();
const from = (address: string | null, userAgent: string | null) => [address ?? "an unknown address", userAgent === null ? null : `(${userAgent})`].filter(Boolean).join(" ");

export async function composeEmail(cfg: Config, prisma: Database, row: OutboxRow, now: Date): Promise<Composed> {
  if (row.kind === "verify_email" || row.kind === "reset_password") return composeLinkEmail(cfg, prisma, row, row.kind, now);
  if (row.kind === "team_invitation") return composeInvitationEmail(cfg, prisma, row, now);
  if (row.activityEventId === null) return { drop: "no event" };
  const event = await prisma.activityEvent.findUnique({ where: { id: row.activityEventId } });
  if (event === null) return { drop: "its activity event is gone" };
  const place = from(event.observedIp, event.observedUserAgent);
  const account = `${cfg.appUrl}/settings/sessions`;
  const footer = `\n\nYou get this mail because it concerns your ${cfg.brand.name} account at ${cfg.appUrl}. Your activity: ${cfg.appUrl}/activity`;
  switch (event.kind) {
    case "password_changed":
    case "password_reset":
      return {
        send: {
          to: row.to,
          subject: `Your ${cfg.brand.name} password was changed`,
          text: `The password of your account ${row.to} was ${event.kind === "password_reset" ? "reset through a link sent to this address" : "changed"} on ${when(event.occurredAt)}, from ${place}. Every other session was signed out.\n\nIf this was not you, set a new password at once: ${cfg.appUrl}/forgot-password, then check your passkeys (${cfg.appUrl}/settings/passkeys) and sessions (${account}).${footer}`,
        },
      };
    case "passkey_added":
      return {
        send: {
          to: row.to,
          subject: `A passkey was added to your ${cfg.brand.name} account`,
          text: `A passkey named "${event.passkeyName ?? "unnamed"}" was added to your account ${row.to} on ${when(event.occurredAt)}${event.observedIp === null ? "" : `, from ${place}`}. It can sign in and confirm approvals.\n\nIf this was not you, remove it at ${cfg.appUrl}/settings/passkeys, change your password and sign out your other sessions (${account}).${footer}`,
        },
      };
    case "approval_reported":
      return {
        send: {
          to: row.to,
          subject: `You reported an approval on ${cfg.brand.name}`,
          text: `On ${when(event.occurredAt)} you said an approval was not yours ("This wasn't me"): ${event.sender ?? "a client"}${event.senderDevice === null ? "" : ` on ${event.senderDevice}`}, for the project ${event.projectName ?? "(deleted)"}. Everything it gave was revoked.\n\nSomeone may know your password or hold one of your sessions: change your password, check your passkeys (${cfg.appUrl}/settings/passkeys) and sign out the sessions you do not know (${account}).${footer}`,
        },
      };
    case "init_approved":
      return {
        send: {
          to: row.to,
          subject: `A client was approved from another network`,
          text: `On ${when(event.occurredAt)} your account approved ${event.sender ?? "a client"}${event.senderDevice === null ? "" : ` on ${event.senderDevice}`} into the project ${event.projectName ?? "(deleted)"}. The client asked from ${event.senderIp ?? "an address it did not report"}; the approval came from ${place}, another network.\n\nIf you did not approve it, say so on your activity page (${cfg.appUrl}/activity): "This wasn't me" revokes everything the approval gave.${footer}`,
        },
      };
    case "webhook_endpoint_disabled":
      return {
        send: {
          to: row.to,
          subject: `A webhook endpoint was disabled on ${cfg.brand.name}`,
          text: `On ${when(event.occurredAt)} the webhook endpoint ${event.tokenName ?? "(deleted)"}${event.teamName === null ? "" : ` of the team ${event.teamName}`} was disabled: every attempt to deliver an event to it failed for the whole retry schedule. It receives no events until it is enabled again.\n\nIts delivery log says what it answered: ${cfg.appUrl}/webhooks${footer}`,
        },
      };
    default:
      return { drop: `no notice for ${event.kind}` };
  }
}

async function composeLinkEmail(cfg: Config, prisma: Database, row: OutboxRow, purpose: EmailLinkPurpose, now: Date): Promise<Composed> {
  if (row.sealedToken === null || row.emailLinkId === null) return { drop: "no link" };
  const link = await prisma.emailLink.findUnique({ where: { id: row.emailLinkId }, select: { usedAt: true, voidedAt: true, expiresAt: true } });
  // A link already replaced, used or expired would only confuse: the newer mail carries the one that works.
  if (link === null || link.usedAt !== null || link.voidedAt !== null || link.expiresAt <= now) return { drop: "its link is no longer valid" };
  const url = `${cfg.appUrl}${LINK_PAGE[purpose]}#token=${unseal(cfg.masterKey, row.sealedToken, outboxTokenBinding(row.id)).toString("utf8")}`;
  const minutes = LINK_LIFETIME_MS[purpose] / 60_000;
  const lifetime = minutes >= 60 ? `${minutes / 60} hours` : `${minutes} minutes`;
  if (purpose === "reset_password") {
    return {
      send: {
        to: row.to,
        subject: `Set a new password for ${cfg.brand.name}`,
        text: `Someone, we hope you, asked to set a new password for the account ${row.to} at ${cfg.appUrl}.\n\nTo set one, open this link within ${lifetime}:\n\n${url}\n\nIt works once, and only the latest link sent works. Setting a new password signs out every session.\n\nIf you did not ask, ignore this mail: your password stays as it is.`,
      },
    };
  }
  return {
    send: {
      to: row.to,
      subject: `Confirm your email address for ${cfg.brand.name}`,
      text: `Confirm that ${row.to} is the address of your account at ${cfg.appUrl} by opening this link within ${lifetime}:\n\n${url}\n\nIf you made no account there, ignore this mail.`,
    },
  };
}

async function composeInvitationEmail(cfg: Config, prisma: Database, row: OutboxRow, now: Date): Promise<Composed> {
  if (row.sealedToken === null || row.teamInvitationId === null) return { drop: "no invitation" };
  const invitation = await prisma.teamInvitation.findUnique({
    where: { id: row.teamInvitationId },
    select: { role: true, invitedBy: true, expiresAt: true, acceptedAt: true, revokedAt: true, team: { select: { name: true } } },
  });
  if (invitation === null || invitation.acceptedAt !== null || invitation.revokedAt !== null || invitation.expiresAt <= now) return { drop: "its invitation is no longer open" };
  const url = invitationUrl(cfg, unseal(cfg.masterKey, row.sealedToken, invitationTokenBinding(row.id)).toString("utf8"));
  return {
    send: {
      to: row.to,
      subject: `${invitation.invitedBy} invited you to the team ${invitation.team.name} on ${cfg.brand.name}`,
      text: `${invitation.invitedBy} invited ${row.to} to join the team "${invitation.team.name}" at ${cfg.appUrl} as ${invitation.role === "member" ? "a member" : `an ${invitation.role}`}.\n\nTo join, open this link before ${when(invitation.expiresAt)}, then sign in or sign up:\n\n${url}\n\nIt works once. If you do not know ${invitation.invitedBy}, ignore this mail.`,
    },
  };
}
