import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { ACTIVITY_LABELS, type ActivityKind } from "@/lib/activity/activity-kinds";
import { listActivity, type ActivityEntry, type ActivityGroup } from "@/lib/activity/list-activity";
import { currentUser } from "@/lib/api/page-session";
import { withReturnTo } from "@/lib/api/return-to";
import { reportedApproval } from "@/lib/approvals/report-approval";
import { pageMessage } from "@/lib/errors";
import { lifetimeText } from "@/lib/init/access-lifetime";
import { clientSoftware } from "@/lib/links/client-software";
import { ReportedAddress } from "../address-parts";
import { ReportControl, ReportedNotice } from "../approval-report";
import { ErrorAlert } from "../form-parts";
import { LocalTime } from "../local-time";

export const metadata: Metadata = { title: "Activity" };

/** One fact of an event, shown only when the event has it. Client-reported text is rendered as text. */
function Fact({ term, children }: { term: string; children: ReactNode }) {
  if (children === null || children === undefined || children === "") return null;
  return (
    <>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </>
  );
}

function ProjectLink({ project }: { project: ActivityEntry["project"] }) {
  return project === null ? null : <Link href={`/projects/${project.id}`}>{project.name}</Link>;
}

/** The access token's name, leading to the page where it is revoked. */
function TokenLink({ name }: { name: string | null }) {
  return name === null ? null : <Link href="/settings/tokens">{name}</Link>;
}

/** A resource-server credential's name, leading to the page where it is revoked. */
function CredentialLink({ name }: { name: string | null }) {
  return name === null ? null : <Link href="/settings/resource-servers">{name}</Link>;
}

const isCredentialEvent = (kind: ActivityKind) => kind === "resource_server_created" || kind === "resource_server_revoked";

/** " from 192.0.2.4 (Firefox 133 on Linux)": where a request came from, as far as it is known. */
function From({ entry }: { entry: ActivityEntry }) {
  if (entry.observedIp === null && entry.observedUserAgent === null) return null;
  const software = entry.observedUserAgent === null ? null : (clientSoftware(entry.observedUserAgent) ?? entry.observedUserAgent);
  return (
    <>
      {" from "}
      {entry.observedIp ?? "an unknown address"}
      {software === null ? null : <span title={entry.observedUserAgent ?? undefined}> ({software})</span>}
    </>
  );
}

/** What one step of a login says; the events of a login belong to the account, so "you" decided. */
function StepText({ entry }: { entry: ActivityEntry }): ReactNode {
  const steps: Partial<Record<ActivityKind, ReactNode>> = {
    init_opened: <>Opened by you</>,
    init_approved: (
      <>
        Approved by you
        {entry.accessLifetimeSeconds === null ? null : `, access for ${lifetimeText(entry.accessLifetimeSeconds * 1000)}`}
        <From entry={entry} />
      </>
    ),
    init_denied: (
      <>
        Denied by you
        <From entry={entry} />
      </>
    ),
    init_expired: <>Expired with no decision</>,
    token_collected: (
      <>
        Access token collected
        <From entry={entry} />
      </>
    ),
    link_created: (
      <>
        Linked
        <From entry={entry} />
      </>
    ),
    approval_reported: (
      <>
        Reported by you as not yours: everything it gave was revoked
        <From entry={entry} />
      </>
    ),
  };
  return steps[entry.kind] ?? ACTIVITY_LABELS[entry.kind];
}

/** The client as its person would name it: "@acme/cli on Ana’s laptop". */
function clientName(events: ActivityEntry[]): string {
  const reported = events.find((event) => event.sender !== null);
  if (reported === undefined) return "A client";
  return reported.senderDevice === null ? (reported.sender ?? "A client") : `${reported.sender} on ${reported.senderDevice}`;
}

/**
 * A login as a short story, one line a step (opened, approved by you from where, token
 * collected, linked), and what the client reported, the addresses and the link ivs under Details.
 */
function Login({ group }: { group: ActivityGroup }) {
  const { events } = group;
  const reported = events.find((event) => event.sender !== null);
  // Where the client's Create Init came from, as the page it opened recorded it.
  const started = events.find((event) => event.kind === "init_opened" || event.kind === "init_expired");
  const token = events.find((event) => event.tokenName !== null);
  const links = events.filter((event) => event.kind === "link_created");
  const project = events.find((event) => event.project !== null)?.project ?? null;
  // An approval not yet reported can be: "This wasn't me" (lib/approvals/report-approval.ts).
  const reportable = events.some((event) => event.kind === "init_approved") && !events.some((event) => event.kind === "approval_reported");
  const titleId = `login-${group.initId}`;
  return (
    <li>
      <p className="entry-title" id={titleId}>
        {clientName(events)}
      </p>
      <p className="entry-subtitle muted">
        <LocalTime value={events[0].occurredAt} />
        {project === null ? null : (
          <>
            {" · "}
            <ProjectLink project={project} />
          </>
        )}
      </p>
      <ol className="story">
        {events.map((event) => (
          <li key={event.id}>
            <StepText entry={event} /> <span className="muted nowrap">· <LocalTime value={event.occurredAt} timeOnly /></span>
          </li>
        ))}
      </ol>
      <details className="more">
        <summary>Details</summary>
        <dl className="facts stacked">
          <Fact term="Application">{reported?.sender}</Fact>
          <Fact term="Device">{reported?.senderDevice}</Fact>
          <Fact term="Operating system">{reported?.senderOs}</Fact>
          <Fact term="Reported address">
            {reported?.senderIp == null ? null : <ReportedAddress address={reported.senderIp} flagged={started?.addressMismatch ?? false} />}
          </Fact>
          <Fact term="Request came from">{started?.observedIp}</Fact>
          <Fact term="Access token">
            <TokenLink name={token?.tokenName ?? null} />
          </Fact>
          {links.map((link) => (
            <Fact key={link.id} term="Link iv">
              <code>{link.iv}</code>
            </Fact>
          ))}
        </dl>
      </details>
      {reportable && group.initId !== null ? <ReportControl initId={group.initId} from="activity" describedBy={titleId} /> : null}
    </li>
  );
}

/**
 * Anything but a login: a link revoked, an access token or resource-server credential made or
 * revoked, a passkey added or removed, a sign-in through the identity provider or its link or
 * unlink, or a link whose login is no longer kept.
 */
function Entry({ entry }: { entry: ActivityEntry }) {
  return (
    <li>
      <p className="entry-title">{ACTIVITY_LABELS[entry.kind]}</p>
      <dl className="facts">
        <Fact term="When">
          <LocalTime value={entry.occurredAt} />
        </Fact>
        <Fact term="Project">
          <ProjectLink project={entry.project} />
        </Fact>
        <Fact term="Application">{entry.sender}</Fact>
        <Fact term="Device">{entry.senderDevice}</Fact>
        <Fact term="Reported address">
          {entry.senderIp === null ? null : <ReportedAddress address={entry.senderIp} flagged={entry.addressMismatch} />}
        </Fact>
        <Fact term="Request came from">{entry.observedIp}</Fact>
        <Fact term="Client software">
          {entry.observedUserAgent === null ? null : <span title={entry.observedUserAgent}>{clientSoftware(entry.observedUserAgent) ?? entry.observedUserAgent}</span>}
        </Fact>
        {isCredentialEvent(entry.kind) ? (
          <Fact term="Credential">
            <CredentialLink name={entry.tokenName} />
          </Fact>
        ) : (
          <Fact term="Access token">
            <TokenLink name={entry.tokenName} />
          </Fact>
        )}
        <Fact term="Passkey">{entry.passkeyName}</Fact>
        <Fact term="Identity provider">{entry.provider}</Fact>
        <Fact term="By">{entry.decidedBy === null ? null : "you"}</Fact>
      </dl>
      {entry.iv === null ? null : (
        <details className="more">
          <summary>Details</summary>
          <dl className="facts stacked">
            <Fact term="Link iv">
              <code>{entry.iv}</code>
            </Fact>
          </dl>
        </details>
      )}
    </li>
  );
}

export default async function ActivityPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await currentUser();
  if (user === null) redirect(withReturnTo("/signin", "/activity"));
  const { before, reported, error } = await searchParams;
  const [page, report] = await Promise.all([
    listActivity(user.id, typeof before === "string" ? before : undefined),
    typeof reported === "string" ? reportedApproval(user.id, reported) : null,
  ]);
  return (
    <>
      <h1>Activity</h1>
      <ErrorAlert message={pageMessage(error)} />
      <ReportedNotice report={report} />
      <p className="muted">
        What happened to your requests, links and access tokens, newest first, and where it came from. If you see a link you did not make, revoke it on
        its project&apos;s page and revoke the access token that made it on <Link href="/settings/tokens">Access tokens</Link>. If you see an
        approval you did not mean, &ldquo;This wasn&apos;t me&rdquo; revokes everything it gave at once.
      </p>
      {page.groups.length === 0 ? (
        <p className="muted">{before === undefined ? "Nothing yet." : "Nothing older."}</p>
      ) : (
        <ul className="card entries" aria-label="Activity, newest first">
          {page.groups.map((group) =>
            group.initId === null ? <Entry key={group.events[0].id} entry={group.events[0]} /> : <Login key={group.initId} group={group} />,
          )}
        </ul>
      )}
      <nav aria-label="Pages" className="copy">
        {before !== undefined ? <Link href="/activity">Newest</Link> : null}
        {page.olderCursor !== null ? <Link href={`/activity?before=${encodeURIComponent(page.olderCursor)}`}>Older</Link> : null}
      </nav>
    </>
  );
}
