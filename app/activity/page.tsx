import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { ACTIVITY_LABELS } from "@/lib/activity/activity-kinds";
import { listActivity, type ActivityEntry } from "@/lib/activity/list-activity";
import { currentUser } from "@/lib/api/page-session";
import { withReturnTo } from "@/lib/api/return-to";
import { clientSoftware } from "@/lib/links/client-software";
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

function Entry({ entry }: { entry: ActivityEntry }) {
  return (
    <li>
      <p className="entry-title">{ACTIVITY_LABELS[entry.kind]}</p>
      <dl className="facts">
        <Fact term="When">
          <LocalTime value={entry.occurredAt} />
        </Fact>
        <Fact term="Project">{entry.project ? <Link href={`/projects/${entry.project.id}`}>{entry.project.name}</Link> : null}</Fact>
        <Fact term="Application">{entry.sender}</Fact>
        <Fact term="Device">{entry.senderDevice}</Fact>
        <Fact term="Operating system">{entry.senderOs}</Fact>
        <Fact term="Reported address">{entry.senderIp}</Fact>
        <Fact term="Request came from">
          {entry.observedIp === null ? null : (
            <>
              {entry.observedIp}
              {entry.addressMismatch ? <strong className="flag"> (differs from the reported address)</strong> : null}
            </>
          )}
        </Fact>
        <Fact term="Client software">
          {entry.observedUserAgent === null ? null : <span title={entry.observedUserAgent}>{clientSoftware(entry.observedUserAgent) ?? entry.observedUserAgent}</span>}
        </Fact>
        <Fact term="Access token">{entry.tokenName}</Fact>
        <Fact term="Link iv">{entry.iv === null ? null : <code>{entry.iv}</code>}</Fact>
        <Fact term="By">{entry.decidedBy}</Fact>
      </dl>
    </li>
  );
}

export default async function ActivityPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await currentUser();
  if (user === null) redirect(withReturnTo("/signin", "/activity"));
  const { before } = await searchParams;
  const page = await listActivity(user.id, typeof before === "string" ? before : undefined);
  return (
    <>
      <h1>Activity</h1>
      <p className="muted">
        What happened to your requests, links and access tokens, newest first, and where it came from. If you see a link you did not make, revoke it on
        its project&apos;s page and revoke the access token that made it.
      </p>
      {page.entries.length === 0 ? (
        <p className="muted">{before === undefined ? "Nothing yet." : "Nothing older."}</p>
      ) : (
        <ul className="card entries" aria-label="Activity, newest first">
          {page.entries.map((entry) => (
            <Entry key={entry.id} entry={entry} />
          ))}
        </ul>
      )}
      <nav aria-label="Pages" className="copy">
        {before !== undefined ? <Link href="/activity">Newest</Link> : null}
        {page.olderCursor !== null ? <Link href={`/activity?before=${encodeURIComponent(page.olderCursor)}`}>Older</Link> : null}
      </nav>
    </>
  );
}
