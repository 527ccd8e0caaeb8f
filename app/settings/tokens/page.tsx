import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { currentUser } from "@/lib/api/page-session";
import { withReturnTo } from "@/lib/api/return-to";
import { pageMessage } from "@/lib/errors";
import { listProjects, type ProjectSummary } from "@/lib/projects/projects";
import { listAccessTokens, type AccessTokenSummary } from "@/lib/access-tokens/manage-access-tokens";
import { TOKEN_LIFETIME_CHOICES } from "@/lib/access-tokens/schemas";
import { NewTokenForm, type Choice, type ChoiceGroup } from "./new-token-form";
import { DoneNotice, ErrorAlert, RevokeControl } from "../../form-parts";
import { LocalTime } from "../../local-time";
import { groupByTeam, groupLabel } from "../../project-groups";
import { SettingsNav } from "../settings-nav";

export const metadata: Metadata = { title: "Access tokens" };

const LIFETIMES: Choice[] = TOKEN_LIFETIME_CHOICES.map((days) => (days === null ? { value: "never", label: "No expiry" } : { value: String(days), label: `${days} days` }));
const DEFAULT_LIFETIME = "90";

type TokenStatus = "active" | "expired" | "revoked";

const STATUS_LABELS: Record<TokenStatus, string> = { active: "Active", expired: "Expired", revoked: "Revoked" };

function tokenStatus(token: AccessTokenSummary, now: number): TokenStatus {
  if (token.revokedAt !== null) return "revoked";
  if (token.expiresAt !== null && token.expiresAt.getTime() <= now) return "expired";
  return "active";
}

function TokenEntry({ token, now }: { token: AccessTokenSummary; now: number }) {
  const status = tokenStatus(token, now);
  const titleId = `token-${token.id}`;
  return (
    <li>
      <p className="entry-title" id={titleId}>
        {token.name}
      </p>
      <dl className="facts">
        <dt>Token</dt>
        <dd>{token.prefix === null ? "made before tokens showed their start" : <code>{token.prefix}…</code>}</dd>
        <dt>Scope</dt>
        <dd>{token.project === null ? "All your projects" : <Link href={`/projects/${token.project.id}`}>{token.project.name}</Link>}</dd>
        <dt>Created</dt>
        <dd>
          <LocalTime value={token.createdAt} />
        </dd>
        <dt>Last used</dt>
        <dd>{token.lastUsedAt ? <LocalTime value={token.lastUsedAt} /> : "never"}</dd>
        <dt>Expires</dt>
        <dd>{token.expiresAt ? <LocalTime value={token.expiresAt} /> : "never"}</dd>
        <dt>Status</dt>
        <dd>
          <span className={`status status-${status}`}>{STATUS_LABELS[status]}</span>
        </dd>
      </dl>
      {status === "active" ? (
        <RevokeControl
          action={`/settings/tokens/${token.id}/revoke`}
          describedBy={titleId}
          what={`the token “${token.name}”`}
          consequence="Clients using it can no longer link. The bearers of the links it made are refused at once by this service and by verifiers that introspect; a verifier that checks them offline accepts them until they expire."
        />
      ) : null}
    </li>
  );
}

export default async function AccessTokensPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await currentUser();
  if (user === null) redirect(withReturnTo("/signin", "/settings/tokens"));
  const [tokens, projects, query] = await Promise.all([listAccessTokens(user.id), listProjects(user.id), searchParams]);
  const error = pageMessage(query.error);
  // Any project the person reaches; with teams, each team's under its name.
  const groups = groupByTeam(projects);
  const choices = (members: ProjectSummary[]): Choice[] => members.map((project) => ({ value: project.id, label: project.name }));
  const all: Choice = { value: "all", label: "All your projects" };
  const scopes: ChoiceGroup[] = groups.every((group) => group.team === null)
    ? [{ label: null, choices: [all, ...choices(projects)] }]
    : [{ label: null, choices: [all] }, ...groups.map((group) => ({ label: groupLabel(group.team), choices: choices(group.projects) }))];
  const now = Date.now();
  const revoked = tokens.find((token) => token.id === query.revoked && token.revokedAt !== null);
  return (
    <>
      <h1>Access tokens</h1>
      <SettingsNav />
      <p className="muted">A client sends an access token to link itself to your projects through the API. Revoke a token you no longer use.</p>
      <ErrorAlert message={error} />
      <DoneNotice message={revoked ? `Revoked the token “${revoked.name}”. Clients using it can no longer link.` : null} />
      <h2>Your tokens</h2>
      {tokens.length === 0 ? (
        <p className="muted">No access tokens yet.</p>
      ) : (
        <ul className="card entries">
          {tokens.map((token) => (
            <TokenEntry key={token.id} token={token} now={now} />
          ))}
        </ul>
      )}
      <NewTokenForm scopes={scopes} lifetimes={LIFETIMES} defaultLifetime={DEFAULT_LIFETIME} />
    </>
  );
}
