import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { currentUser } from "@/lib/api/page-session";
import { withReturnTo } from "@/lib/api/return-to";
import { projectApprovals, reportedApproval, type ProjectApproval } from "@/lib/approvals/report-approval";
import { config } from "@/lib/config";
import { pageMessage } from "@/lib/errors";
import { PROJECT_NAME_MAX } from "@/lib/field-lengths";
import { clientSoftware } from "@/lib/links/client-software";
import { listProjectLinks, type LinkStatus, type LinkSummary } from "@/lib/links/manage-links";
import { prepareProjectKey, storedKey, type ProjectPublicKey } from "@/lib/projects/project-keys";
import { findReachableProject, type ProjectSummary } from "@/lib/projects/projects";
import { resolveProjectId } from "@/lib/projects/resolve-project";
import { hasRole, ROLE_LABELS } from "@/lib/teams/roles";
import { listTeams, type TeamSummary } from "@/lib/teams/teams";
import { ReportControl, ReportedNotice } from "../../approval-report";
import { CopyButton } from "../../copy-button";
import { KeyPending } from "./key-pending";
import { DoneNotice, ErrorAlert, RevokeControl } from "../../form-parts";
import { LocalTime } from "../../local-time";
import { groupLabel } from "../../project-groups";

export const metadata: Metadata = { title: "Project" };

const LINK_STATUS_LABELS: Record<LinkStatus, string> = {
  active: "Active",
  revoked: "Revoked",
  token_revoked: "Access token revoked",
  token_expired: "Access token expired",
};

function PublicKey({ publicKey }: { publicKey: ProjectPublicKey }) {
  // A PEM's lines keep their breaks: on a narrow screen the block scrolls sideways within itself
  // (app/globals.css), so it is a named region that takes keyboard focus, for those who scroll
  // with the keyboard.
  // The fingerprint is what a person compares; the PEM, for tools, folds out beneath it.
  return (
    <section className="card">
      <h2>Public key</h2>
      <h3>Fingerprint</h3>
      <p className="fingerprint">
        <code>{publicKey.fingerprint}</code>
      </p>
      <CopyButton text={publicKey.fingerprint} label="Copy fingerprint" />
      <p className="hint">A linked client shows this same fingerprint; compare the two.</p>
      <details className="more">
        <summary>The key itself (PEM)</summary>
        <pre className="pem" role="region" aria-label="Public key, PEM" tabIndex={0}>
          {publicKey.pem.trim()}
        </pre>
        <CopyButton text={publicKey.pem} label="Copy public key" />
      </details>
    </section>
  );
}

/**
 * A linked client is named by its access token: the one an init issues is named after the init's
 * sender and device ("@acme/cli on build box"), one made on the settings page by its person.
 * Its software is said briefly from the User-Agent it linked with (never the raw header, which is
 * whatever the client sent); the iv, the client's own name for the link, folds out under Details.
 */
function LinkEntry({ projectId, link }: { projectId: string; link: LinkSummary }) {
  const titleId = `link-${link.id}`;
  const software = clientSoftware(link.userAgent);
  return (
    <li>
      <p className="entry-title" id={titleId}>
        {link.tokenName}
      </p>
      <dl className="facts">
        <dt>Software</dt>
        <dd>{software ?? <span className="muted">not reported</span>}</dd>
        <dt>Approved by</dt>
        <dd>{link.approvedBy}</dd>
        <dt>Linked</dt>
        <dd>
          <LocalTime value={link.createdAt} />
        </dd>
        <dt>Last used</dt>
        <dd>{link.lastUsedAt ? <LocalTime value={link.lastUsedAt} /> : "never"}</dd>
        <dt>Access until</dt>
        <dd>{link.accessUntil ? <LocalTime value={link.accessUntil} /> : "no end"}</dd>
        <dt>Status</dt>
        <dd>
          <span className={`status ${link.status === "active" ? "status-active" : "status-revoked"}`}>{LINK_STATUS_LABELS[link.status]}</span>
        </dd>
      </dl>
      <details className="more">
        <summary>Details</summary>
        <dl className="facts">
          <dt>Link iv</dt>
          <dd>
            <code>{link.iv}</code>
          </dd>
        </dl>
      </details>
      {link.revokedAt === null && link.revocable ? (
        <RevokeControl
          action={`/projects/${projectId}/links/${link.id}/revoke`}
          describedBy={titleId}
          what={`the link of “${link.tokenName}”`}
          consequence="This service and verifiers that introspect refuse its bearer at once; a verifier that checks it offline accepts it until it expires."
        />
      ) : null}
    </li>
  );
}

function LinkedClients({ projectId, links }: { projectId: string; links: LinkSummary[] }) {
  return (
    <section aria-labelledby="linked-clients">
      <h2 id="linked-clients">Linked clients</h2>
      {links.length === 0 ? (
        <p className="muted">No client has linked to this project yet.</p>
      ) : (
        <ul className="card entries">
          {links.map((link) => (
            <LinkEntry key={link.id} projectId={projectId} link={link} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** Whose the project is: a team's (with the viewer's role there), or the viewer's own. */
function Owner({ team }: { team: ProjectSummary["team"] }) {
  if (team === null) return <>Personal</>;
  return (
    <>
      <Link href={`/teams/${team.id}`}>{groupLabel(team)}</Link> <span className="muted">(you: {ROLE_LABELS[team.role]})</span>
    </>
  );
}

/**
 * Moving a personal project into a team, for the teams its owner owns (docs/teams.md): folded, as
 * Rename, since it is rare and cannot be taken back.
 */
function MoveToTeam({ projectId, teams }: { projectId: string; teams: TeamSummary[] }) {
  if (teams.length === 0) return null;
  return (
    <details className="more">
      <summary>Move to a team…</summary>
      <form method="post" action={`/projects/${projectId}/move`} className="card stack">
        <p className="hint">
          Its id, key and links stay the same; from then on the team&apos;s members reach it, each as their role allows. A project in a team stays there: it
          cannot be moved back.
        </p>
        <label>
          Team
          <select name="team" required>
            {teams.map((team) => (
              <option key={team.id} value={team.id}>
                {team.name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Move</button>
      </form>
    </details>
  );
}

/** The person's approvals of clients into this project, each with "This wasn't me" (lib/approvals/report-approval.ts). */
function Approvals({ approvals }: { approvals: ProjectApproval[] }) {
  if (approvals.length === 0) return null;
  return (
    <section aria-labelledby="approvals">
      <h2 id="approvals">Your approvals</h2>
      <ul className="card entries">
        {approvals.map((approval) => (
          <li key={approval.initId}>
            <p className="entry-title" id={`approval-${approval.initId}`}>
              {approval.client}
            </p>
            <p className="entry-subtitle muted">
              Approved <LocalTime value={approval.approvedAt} />
              {approval.reported ? " · reported as not yours, everything it gave revoked" : null}
            </p>
            {approval.reported ? null : <ReportControl initId={approval.initId} from="project" describedBy={`approval-${approval.initId}`} />}
          </li>
        ))}
      </ul>
    </section>
  );
}

export default async function ProjectPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id } = await params;
  const user = await currentUser();
  if (user === null) redirect(withReturnTo("/signin", `/projects/${id}`));
  // Someone else's project reads exactly like one that does not exist. An existing client may
  // name the project by the id of an init approved into it (docs/api.md, Compatibility).
  const projectId = await resolveProjectId(id, user.id);
  if (projectId === null) notFound();
  if (projectId !== id) redirect(`/projects/${projectId}`);
  const project = await findReachableProject(user.id, projectId);
  if (project === null) notFound();
  const [publicKey, links, approvals, teams, query] = await Promise.all([
    storedKey(project.id),
    listProjectLinks(user.id, project.id),
    projectApprovals(user.id, project.id),
    // Only a personal project moves, into a team its owner owns.
    project.team === null ? listTeams(user.id) : [],
    searchParams,
  ]);
  // A project's key is generated when first needed, and someone who reaches it opening this page
  // is such a need: the generation starts here and takes a few seconds, which the page shows
  // rather than wait.
  if (publicKey === null) prepareProjectKey(config(), project.id);
  const error = pageMessage(query.error);
  const revoked = links.find((link) => link.id === query.revoked && link.revokedAt !== null);
  const report = typeof query.reported === "string" ? await reportedApproval(user.id, query.reported) : null;
  return (
    <>
      <h1>{project.name}</h1>
      <ErrorAlert message={error} />
      <DoneNotice
        message={
          revoked
            ? `Revoked the link of “${revoked.tokenName}”. This service and verifiers that introspect now refuse its bearer; a verifier that checks it offline accepts it until it expires.`
            : null
        }
      />
      <DoneNotice message={query.renamed === "1" ? "Renamed. Its links, key and tokens are as they were." : null} />
      <DoneNotice
        message={
          query.moved === "1" && project.team !== null
            ? `Moved to the team ${project.team.name}. Its id, key and links are as they were; the team's members now reach it.`
            : null
        }
      />
      <ReportedNotice report={report} />
      <dl className="card facts">
        <dt>Project id</dt>
        <dd>
          <code>{project.id}</code>
        </dd>
        <dt>Belongs to</dt>
        <dd>
          <Owner team={project.team} />
        </dd>
        <dt>Created</dt>
        <dd>
          <LocalTime value={project.createdAt} />
        </dd>
      </dl>
      {project.team === null || hasRole(project.team.role, "admin") ? (
        <details className="more">
          <summary>Rename…</summary>
          <form method="post" action={`/projects/${project.id}/rename`} className="card stack">
            <label>
              New name
              <input name="name" required maxLength={PROJECT_NAME_MAX} defaultValue={project.name} />
            </label>
            <button type="submit">Rename</button>
          </form>
        </details>
      ) : null}
      <MoveToTeam projectId={project.id} teams={teams.filter((team) => team.role === "owner")} />
      <LinkedClients projectId={project.id} links={links} />
      <Approvals approvals={approvals} />
      {publicKey === null ? <KeyPending /> : <PublicKey publicKey={publicKey} />}
    </>
  );
}
