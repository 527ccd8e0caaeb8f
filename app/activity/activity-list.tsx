import Link from "next/link";
import type { ActivityPage } from "@/lib/activity/list-activity";
import type { ActivityScope } from "./activity-parts";
import { Entry } from "./event-entry";
import { Login } from "./login-entry";

/**
 * A page of activity, newest first, and the links to the next: the person's own on /activity,
 * a team's on its page. `path` is the list's page (its `?before=` pages older events), `fragment`
 * the list's place on it, so that paging does not start again at the top.
 */
export function ActivityList({
  page,
  scope,
  before,
  path,
  fragment = "",
}: {
  page: ActivityPage;
  scope: ActivityScope;
  before: string | undefined;
  path: string;
  fragment?: string;
}) {
  return (
    <>
      {page.groups.length === 0 ? (
        <p className="muted">{before === undefined ? "Nothing yet." : "Nothing older."}</p>
      ) : (
        <ul className="card entries" aria-label="Activity, newest first">
          {page.groups.map((group) =>
            group.initId === null ? (
              <Entry key={group.events[0].id} entry={group.events[0]} scope={scope} />
            ) : (
              <Login key={group.initId} group={group} scope={scope} />
            ),
          )}
        </ul>
      )}
      <nav aria-label="Pages" className="copy">
        {before !== undefined ? <Link href={`${path}${fragment}`}>Newest</Link> : null}
        {page.olderCursor !== null ? <Link href={`${path}?before=${encodeURIComponent(page.olderCursor)}${fragment}`}>Older</Link> : null}
      </nav>
    </>
  );
}
