import type { ReactNode } from "react";
import { ACTIVITY_LABELS, type ActivityKind } from "@/lib/activity/activity-kinds";
import type { ActivityEntry, ActivityGroup } from "@/lib/activity/list-activity";
import { lifetimeText } from "@/lib/init/access-lifetime";
import { ReportedAddress } from "../address-parts";
import { ReportControl } from "../approval-report";
import { LocalTime } from "../local-time";
import { Fact, From, actorOf, projectLink, tokenName, type ActivityScope } from "./activity-parts";

/** What one step of a login says, naming who decided (on the person's own list, always "you"). */
function StepText({ entry, scope }: { entry: ActivityEntry; scope: ActivityScope }): ReactNode {
  const who = actorOf(entry, scope);
  const steps: Partial<Record<ActivityKind, ReactNode>> = {
    init_opened: <>Opened by {who}</>,
    init_approved: (
      <>
        Approved by {who}
        {entry.accessLifetimeSeconds === null ? null : `, access for ${lifetimeText(entry.accessLifetimeSeconds * 1000)}`}
        <From entry={entry} />
      </>
    ),
    init_denied: (
      <>
        Denied by {who}
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
        Reported by {who === "you" ? "you as not yours" : `${who} as not theirs`}: everything it gave was revoked
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
 * A login as a short story, one line a step (opened, approved by whom from where, token
 * collected, linked), and what the client reported, the addresses and the link ivs under Details.
 */
export function Login({ group, scope }: { group: ActivityGroup; scope: ActivityScope }) {
  const { events } = group;
  const reported = events.find((event) => event.sender !== null);
  // Where the client's Create Init came from, as the page it opened recorded it.
  const started = events.find((event) => event.kind === "init_opened" || event.kind === "init_expired");
  const token = events.find((event) => event.tokenName !== null);
  const links = events.filter((event) => event.kind === "link_created");
  const project = events.find((event) => event.project !== null)?.project ?? null;
  // An approval not yet reported can be, by its own person: "This wasn't me" (lib/approvals/report-approval.ts).
  const reportable =
    scope.kind === "account" && events.some((event) => event.kind === "init_approved") && !events.some((event) => event.kind === "approval_reported");
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
            {projectLink(project)}
          </>
        )}
      </p>
      <ol className="story">
        {events.map((event) => (
          <li key={event.id}>
            <StepText entry={event} scope={scope} /> <span className="muted nowrap">· <LocalTime value={event.occurredAt} timeOnly /></span>
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
          <Fact term="Access token">{tokenName(token?.tokenName ?? null, "/settings/tokens", scope)}</Fact>
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
