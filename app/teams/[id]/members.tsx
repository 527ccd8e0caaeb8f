import Link from "next/link";
import { ROLE_LABELS, TEAM_ROLES, hasRole, type TeamRole } from "@/lib/teams/roles";
import type { TeamMemberView, TeamView } from "@/lib/teams/teams";
import { LocalTime } from "../../local-time";

/** The confirmation page of a removal or of leaving: it shows what goes with the member. */
const memberPage = (teamId: string, userId: string) => `/teams/${teamId}/members/${userId}`;

/** Admins remove members and admins, owners anyone; oneself leaves instead. */
const mayRemove = (viewer: TeamRole, member: TeamMemberView) => hasRole(viewer, "admin") && (member.role !== "owner" || viewer === "owner");

/** An owner's control of a member's role; `describedBy` names the member, for screen readers. */
function RoleForm({ teamId, member, describedBy }: { teamId: string; member: TeamMemberView; describedBy: string }) {
  return (
    <form method="post" action={`${memberPage(teamId, member.userId)}/role`} className="inline-form">
      <label>
        New role
        <select name="role" defaultValue={member.role} aria-describedby={describedBy}>
          {TEAM_ROLES.map((role) => (
            <option key={role} value={role}>
              {ROLE_LABELS[role]}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="secondary">
        Change role
      </button>
    </form>
  );
}

function MemberEntry({ team, member, viewerId }: { team: TeamView; member: TeamMemberView; viewerId: string }) {
  const titleId = `member-${member.userId}`;
  const self = member.userId === viewerId;
  return (
    <li>
      <p className="entry-title" id={titleId}>
        {member.email}
        {self ? <span className="muted"> (you)</span> : null}
      </p>
      <dl className="facts">
        <dt>Role</dt>
        <dd>{ROLE_LABELS[member.role]}</dd>
        <dt>Joined</dt>
        <dd>
          <LocalTime value={member.joinedAt} />
        </dd>
      </dl>
      {team.role === "owner" ? <RoleForm teamId={team.id} member={member} describedBy={titleId} /> : null}
      {!self && mayRemove(team.role, member) ? (
        <p className="entry-action">
          <Link href={memberPage(team.id, member.userId)} aria-describedby={titleId}>
            Remove
          </Link>
        </p>
      ) : null}
    </li>
  );
}

/** The team's members, each with what the viewer may do to them, and the viewer's own way out. */
export function Members({ team, viewerId }: { team: TeamView; viewerId: string }) {
  return (
    <section aria-labelledby="members">
      <h2 id="members">Members</h2>
      <ul className="card entries">
        {team.members.map((member) => (
          <MemberEntry key={member.userId} team={team} member={member} viewerId={viewerId} />
        ))}
      </ul>
      <p>
        <Link href={memberPage(team.id, viewerId)}>Leave team</Link>
      </p>
    </section>
  );
}
