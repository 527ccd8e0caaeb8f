import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { currentUser } from "@/lib/api/page-session";
import { withReturnTo } from "@/lib/api/return-to";
import { pageMessage } from "@/lib/errors";
import { TEAM_NAME_MAX } from "@/lib/field-lengths";
import { ROLE_LABELS } from "@/lib/teams/roles";
import { listTeams } from "@/lib/teams/teams";
import { DoneNotice, ErrorAlert } from "../form-parts";
import { plural } from "./team-parts";

export const metadata: Metadata = { title: "Teams" };

export default async function TeamsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await currentUser();
  if (user === null) redirect(withReturnTo("/signin", "/teams"));
  const [teams, query] = await Promise.all([listTeams(user.id), searchParams]);
  return (
    <>
      <h1>Your teams</h1>
      <ErrorAlert message={pageMessage(query.error)} />
      <DoneNotice message={query.deleted === "1" ? "Team deleted." : null} />
      <DoneNotice message={query.left === "1" ? "You left the team. What you approved into its projects was revoked as you chose." : null} />
      <p className="muted">A team shares its projects: each member reaches them as their role allows.</p>
      {teams.length === 0 ? (
        <p className="muted">You are in no team yet. Make one below, or open the invitation link a team&apos;s admin sent you.</p>
      ) : (
        <ul className="card list long-words">
          {teams.map((team) => (
            <li key={team.id}>
              <Link href={`/teams/${team.id}`}>{team.name}</Link>{" "}
              <span className="muted">
                {ROLE_LABELS[team.role]} · {plural(team.members, "member", "members")} · {plural(team.projects, "project", "projects")}
              </span>
            </li>
          ))}
        </ul>
      )}
      <form method="post" action="/teams/create" className="card stack narrow" aria-labelledby="new-team-heading">
        <h2 id="new-team-heading">New team</h2>
        <label>
          Team name
          <input name="name" type="text" required maxLength={TEAM_NAME_MAX} autoComplete="off" />
        </label>
        <button type="submit">Create team</button>
      </form>
    </>
  );
}
