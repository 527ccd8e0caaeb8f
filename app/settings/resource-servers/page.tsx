import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { currentUser } from "@/lib/api/page-session";
import { withReturnTo } from "@/lib/api/return-to";
import { config } from "@/lib/config";
import { pageMessage } from "@/lib/errors";
import { introspectionEndpoint } from "@/lib/oauth/authorization-server-metadata";
import { listProjects, type ProjectSummary } from "@/lib/projects/projects";
import { listResourceServers, type ResourceServerSummary } from "@/lib/resource-servers/manage-resource-servers";
import { DoneNotice, ErrorAlert, RevokeControl } from "../../form-parts";
import { LocalTime } from "../../local-time";
import { SettingsNav } from "../settings-nav";
import { groupByTeam, groupLabel } from "../../project-groups";
import { NewResourceServerForm, type ProjectChoiceGroup } from "./new-resource-server-form";

export const metadata: Metadata = { title: "Resource servers" };

function CredentialEntry({ credential }: { credential: ResourceServerSummary }) {
  const titleId = `credential-${credential.id}`;
  const active = credential.revokedAt === null;
  return (
    <li>
      <p className="entry-title" id={titleId}>
        {credential.name}
      </p>
      <dl className="facts">
        <dt>Client ID</dt>
        <dd>
          <code>{credential.id}</code>
        </dd>
        <dt>Projects</dt>
        <dd>
          {credential.projects.map((project, at) => (
            <span key={project.id}>
              {at > 0 ? ", " : null}
              <Link href={`/projects/${project.id}`}>{project.name}</Link>
            </span>
          ))}
        </dd>
        <dt>Created</dt>
        <dd>
          <LocalTime value={credential.createdAt} />
        </dd>
        <dt>Last used</dt>
        <dd>{credential.lastUsedAt ? <LocalTime value={credential.lastUsedAt} /> : "never"}</dd>
        <dt>Status</dt>
        <dd>
          <span className={`status status-${active ? "active" : "revoked"}`}>{active ? "Active" : "Revoked"}</span>
        </dd>
      </dl>
      {active ? (
        <RevokeControl
          action={`/settings/resource-servers/${credential.id}/revoke`}
          describedBy={titleId}
          what={`the credential “${credential.name}”`}
          consequence="Its introspection requests are refused at once (401 invalid_client)."
        />
      ) : null}
    </li>
  );
}

/** The projects a credential may check, each team's under its name once the person has any in a team. */
function credentialGroups(projects: ProjectSummary[]): ProjectChoiceGroup[] {
  const groups = groupByTeam(projects);
  const named = groups.some((group) => group.team !== null);
  return groups.map(({ team, projects: members }) => ({
    key: team?.id ?? "personal",
    label: named ? groupLabel(team) : null,
    projects: members.map(({ id, name }) => ({ id, name })),
  }));
}

export default async function ResourceServersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await currentUser();
  if (user === null) redirect(withReturnTo("/signin", "/settings/resource-servers"));
  const [credentials, projects, query] = await Promise.all([listResourceServers(user.id), listProjects(user.id, "admin"), searchParams]);
  const revoked = credentials.find((credential) => credential.id === query.revoked && credential.revokedAt !== null);
  return (
    <>
      <h1>Resource servers</h1>
      <SettingsNav />
      <p className="muted">
        Your platform&apos;s API (a resource server) uses a credential to ask this service whether a token or a link&apos;s bearer it was handed is still valid,
        and which account approved it (token introspection). A credential learns that only for the projects you choose.
      </p>
      <ErrorAlert message={pageMessage(query.error)} />
      <DoneNotice message={revoked ? `Revoked the credential “${revoked.name}”. Its introspection requests are refused from now on.` : null} />
      <h2>Your credentials</h2>
      {credentials.length === 0 ? (
        <p className="muted">No resource-server credentials yet.</p>
      ) : (
        <ul className="card entries">
          {credentials.map((credential) => (
            <CredentialEntry key={credential.id} credential={credential} />
          ))}
        </ul>
      )}
      {projects.length === 0 ? (
        <p className="muted">
          A credential checks the tokens of your personal projects and of your teams&apos; projects where you are an admin or owner: you have none yet.
          Approve a client into a new project first.
        </p>
      ) : (
        <NewResourceServerForm groups={credentialGroups(projects)} introspectionEndpoint={introspectionEndpoint(config())} />
      )}
    </>
  );
}
