import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { currentUser } from "@/lib/api/page-session";
import { withReturnTo } from "@/lib/api/return-to";
import { pageMessage } from "@/lib/errors";
import { ROLE_LABELS, TEAM_ROLES, hasRole } from "@/lib/teams/roles";
import { listTeamActivity } from "@/lib/teams/team-activity-list";
import type { TeamView } from "@/lib/teams/teams";
import { ActivityList } from "../../activity/activity-list";
import { DoneNotice, ErrorAlert } from "../../form-parts";
import { LocalTime } from "../../local-time";
import { teamOrNotFound } from "../team-parts";
import { InviteForm } from "./invite-form";
import { OpenInvitations } from "./invitations";
import { Members } from "./members";
import { OwnerControls } from "./owner-controls";

export const metadata: Metadata = { title: "Team" };

type Query = Record<string, string | string[] | undefined>;

/** What a form that brought the person back here did (its route's redirect says which). */
const NOTICES: [flag: string, message: string][] = [
  ["created", "Team created. Invite its members below."],
  ["joined", "You joined the team."],
  ["renamed", "Renamed."],
  ["role_changed", "Role changed."],
  ["removed", "Member removed. What they approved into the team's projects was revoked as you chose."],
  ["invitation_revoked", "Invitation revoked: its link no longer works."],
];

function Projects({ team }: { team: TeamView }) {
  return (
    <section aria-labelledby="projects">
      <h2 id="projects">Projects</h2>
      {team.projects.length === 0 ? (
        <p className="muted">No projects yet. An admin makes one in the team when approving a client.</p>
      ) : (
        <ul className="card list long-words">
          {team.projects.map((project) => (
            <li key={project.id}>
              <Link href={`/projects/${project.id}`}>{project.name}</Link>{" "}
              <span className="muted">
                created <LocalTime value={project.createdAt} />
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export default async function TeamPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Query> }) {
  const { id } = await params;
  const user = await currentUser();
  if (user === null) redirect(withReturnTo("/signin", `/teams/${encodeURIComponent(id)}`));
  const [team, query] = await Promise.all([teamOrNotFound(user.id, id), searchParams]);
  const admin = hasRole(team.role, "admin");
  const before = typeof query.before === "string" ? query.before : undefined;
  const activity = admin ? await listTeamActivity(user.id, team.id, before) : null;
  return (
    <>
      <h1 className="long-words">{team.name}</h1>
      <ErrorAlert message={pageMessage(query.error)} />
      {NOTICES.map(([flag, message]) => (
        <DoneNotice key={flag} message={query[flag] === "1" ? message : null} />
      ))}
      <p className="muted">Your role: {ROLE_LABELS[team.role]}.</p>
      {admin ? (
        <p>
          <Link href={`/webhooks#team-${team.id}`}>Webhooks</Link>: send the team&apos;s events, and its projects&apos;, to your services.
        </p>
      ) : null}
      <Projects team={team} />
      <Members team={team} viewerId={user.id} />
      {admin ? (
        <>
          <InviteForm teamId={team.id} roles={team.role === "owner" ? TEAM_ROLES : TEAM_ROLES.filter((role) => role !== "owner")} />
          <OpenInvitations teamId={team.id} invitations={team.invitations} />
        </>
      ) : null}
      {team.role === "owner" ? <OwnerControls teamId={team.id} name={team.name} /> : null}
      {activity === null ? null : (
        <section aria-labelledby="team-activity">
          <h2 id="team-activity">Team activity</h2>
          <p className="muted">The team&apos;s changes and everything that happened in its projects, whoever did it, newest first.</p>
          <ActivityList page={activity} scope={{ kind: "team", viewerEmail: user.email }} before={before} path={`/teams/${team.id}`} fragment="#team-activity" />
        </section>
      )}
    </>
  );
}
