import { ROLE_LABELS } from "@/lib/teams/roles";
import type { InvitationView } from "@/lib/teams/teams";
import { RevokeControl } from "../../form-parts";
import { LocalTime } from "../../local-time";

/** The team's open invitations (its admins and owners see them), each with Revoke. */
export function OpenInvitations({ teamId, invitations }: { teamId: string; invitations: InvitationView[] }) {
  return (
    <section aria-labelledby="open-invitations">
      <h2 id="open-invitations">Open invitations</h2>
      {invitations.length === 0 ? (
        <p className="muted">None: every invitation was accepted, revoked or has expired.</p>
      ) : (
        <ul className="card entries">
          {invitations.map((invitation) => {
            const titleId = `invitation-${invitation.id}`;
            return (
              <li key={invitation.id}>
                <p className="entry-title" id={titleId}>
                  {invitation.email}
                </p>
                <dl className="facts">
                  <dt>Role</dt>
                  <dd>{ROLE_LABELS[invitation.role]}</dd>
                  <dt>Who may accept</dt>
                  <dd>{invitation.anyEmail ? "Any account" : "This email's account only"}</dd>
                  <dt>Invited by</dt>
                  <dd>{invitation.invitedBy}</dd>
                  <dt>Sent</dt>
                  <dd>
                    <LocalTime value={invitation.createdAt} />
                  </dd>
                  <dt>Expires</dt>
                  <dd>
                    <LocalTime value={invitation.expiresAt} />
                  </dd>
                </dl>
                <RevokeControl
                  action={`/teams/${teamId}/invitations/${invitation.id}/revoke`}
                  describedBy={titleId}
                  what={`the invitation for ${invitation.email}`}
                  consequence="Its link no longer works."
                />
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
