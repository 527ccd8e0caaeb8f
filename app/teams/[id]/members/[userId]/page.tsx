import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { currentUser } from "@/lib/api/page-session";
import { withReturnTo } from "@/lib/api/return-to";
import { pageMessage } from "@/lib/errors";
import { memberApprovals } from "@/lib/teams/membership";
import { hasRole } from "@/lib/teams/roles";
import type { TeamMemberView, TeamView } from "@/lib/teams/teams";
import { ErrorAlert } from "../../../../form-parts";
import { orNotFound, teamOrNotFound } from "../../../team-parts";
import { ApprovalsRevoked } from "./member-approvals";

export const metadata: Metadata = { title: "Team member" };

/**
 * Why the viewer may not remove `member` (or leave), as the removal would refuse it; null when
 * they may. Said before anything is listed: the list is for the one who removes.
 */
function refusal(team: TeamView, member: TeamMemberView, leaving: boolean): string | null {
  if (!leaving && (!hasRole(team.role, "admin") || (member.role === "owner" && team.role !== "owner"))) return pageMessage("team_role_required");
  const lastOwner = member.role === "owner" && team.members.filter((other) => other.role === "owner").length === 1;
  return lastOwner ? pageMessage("last_owner") : null;
}

/** The choice to keep the member's links (lib/teams/membership.ts, removeMember); with none, there is nothing to keep. */
function KeepLinks({ leaving }: { leaving: boolean }) {
  return (
    <>
      <label className="check">
        <input type="checkbox" name="keep_links" value="yes" aria-describedby="keep-links-hint" />
        Keep {leaving ? "your" : "their"} links working (the clients keep the project&apos;s key)
      </label>
      <p id="keep-links-hint" className="hint">
        The links, and the access tokens they hang on, then stay; {leaving ? "you reach" : "the person reaches"} nothing of the team either way.
      </p>
    </>
  );
}

/**
 * The confirmation of a removal, or of leaving (the member is the viewer): what the member
 * approved into the team's projects, all of which the removal revokes, and the choice to keep
 * their links. Its form posts to …/remove, whose refusals come back here with ?error=.
 */
export default async function RemoveMemberPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string; userId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id, userId } = await params;
  const user = await currentUser();
  if (user === null) redirect(withReturnTo("/signin", `/teams/${encodeURIComponent(id)}/members/${encodeURIComponent(userId)}`));
  const [team, query] = await Promise.all([teamOrNotFound(user.id, id), searchParams]);
  const member = team.members.find((candidate) => candidate.userId === userId);
  if (member === undefined) notFound();
  const leaving = member.userId === user.id;
  const refused = refusal(team, member, leaving);
  // The member may have gone since the team was read: then this page is not found either.
  const approvals = refused === null ? await orNotFound(memberApprovals(user.id, team.id, member.userId)) : null;
  return (
    <>
      <h1 className="long-words">{leaving ? `Leave ${team.name}` : `Remove ${member.email} from ${team.name}`}</h1>
      <ErrorAlert message={pageMessage(query.error) ?? refused} />
      {approvals === null ? null : (
        <>
          <p>
            {leaving ? "You lose" : "They lose"} the team&apos;s projects at {leaving ? "your" : "their"} next request. What {leaving ? "you" : "they"} approved
            into them is revoked with {leaving ? "your departure" : "the removal"}:
          </p>
          <ApprovalsRevoked approvals={approvals} leaving={leaving} />
          <form method="post" action={`/teams/${team.id}/members/${member.userId}/remove`} className="card stack">
            {approvals.links.length === 0 ? null : <KeepLinks leaving={leaving} />}
            <button type="submit" className="danger long-words">
              {leaving ? `Leave ${team.name}` : `Remove ${member.email}`}
            </button>
          </form>
        </>
      )}
      <p className="long-words">
        <Link href={`/teams/${team.id}`}>Back to {team.name}</Link>
      </p>
    </>
  );
}
