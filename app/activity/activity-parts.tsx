import Link from "next/link";
import type { ReactNode } from "react";
import type { ActivityEntry } from "@/lib/activity/list-activity";
import { clientSoftware } from "@/lib/links/client-software";
import { ROLE_LABELS, isTeamRole } from "@/lib/teams/roles";

// The small pieces of an activity list (app/activity/activity-list.tsx), on /activity and on a
// team's page.

/**
 * Whose events a list shows: the person's own, every one of them theirs ("you"), or a team's,
 * where each names the account that acted (the viewer's own as "you").
 */
export type ActivityScope = { kind: "account" } | { kind: "team"; viewerEmail: string };

/** Who acted in `entry`, as a step of a login says it. */
export function actorOf(entry: ActivityEntry, scope: ActivityScope): string {
  if (scope.kind === "account" || entry.decidedBy === scope.viewerEmail) return "you";
  return entry.decidedBy ?? "a member";
}

/** One fact of an event, shown only when the event has it. Client-reported text is rendered as text. */
export function Fact({ term, children }: { term: string; children: ReactNode }) {
  if (children === null || children === undefined || children === "") return null;
  return (
    <>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </>
  );
}

/** A function, not a component, so that a Fact of an event without a project is left out. */
export const projectLink = (project: ActivityEntry["project"]): ReactNode => (project === null ? null : <Link href={`/projects/${project.id}`}>{project.name}</Link>);

/**
 * An access token's or credential's name, leading to the settings page where it is revoked. On a
 * team's list it may be another member's, which that page does not show: there it is text.
 */
export function tokenName(name: string | null, href: string, scope: ActivityScope): ReactNode {
  if (name === null) return null;
  return scope.kind === "account" ? <Link href={href}>{name}</Link> : name;
}

/** A team's role as its label; a role this version does not know, as written. */
export const roleLabel = (role: string | null): string | null => (role === null ? null : isTeamRole(role) ? ROLE_LABELS[role] : role);

/** " from 192.0.2.4 (Firefox 133 on Linux)": where a request came from, as far as it is known. */
export function From({ entry }: { entry: ActivityEntry }) {
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
