import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { currentUser } from "@/lib/api/page-session";
import { withReturnTo } from "@/lib/api/return-to";
import { pageMessage } from "@/lib/errors";
import { listEndpoints, type EndpointSummary } from "@/lib/events/endpoints";
import { ENDPOINT_DESCRIPTION_MAX, ENDPOINT_URL_MAX } from "@/lib/events/schemas";
import { hasRole } from "@/lib/teams/roles";
import { listTeams } from "@/lib/teams/teams";
import { DoneNotice, ErrorAlert } from "../form-parts";
import { groupLabel } from "../project-groups";
import { SettingsNav } from "../settings/settings-nav";
import { EndpointState, EventTypeNames } from "./endpoint-parts";
import { NewEndpointForm, type OwnerChoice } from "./new-endpoint-form";

export const metadata: Metadata = { title: "Webhooks" };

function EndpointEntry({ endpoint }: { endpoint: EndpointSummary }) {
  return (
    <li>
      <p className="entry-title">
        <Link href={`/webhooks/${endpoint.id}`}>{endpoint.url}</Link>
      </p>
      <dl className="facts">
        {endpoint.description === "" ? null : (
          <>
            <dt>Description</dt>
            <dd>{endpoint.description}</dd>
          </>
        )}
        <dt>Events</dt>
        <dd>
          <EventTypeNames types={endpoint.types} />
        </dd>
        <dt>State</dt>
        <dd>
          <EndpointState endpoint={endpoint} />
        </dd>
      </dl>
    </li>
  );
}

/** One owner's endpoints under its heading: the person's own, or a team's (whose section the team's page links to). */
function EndpointGroup({ sectionId, heading, endpoints, none }: { sectionId: string; heading: ReactNode; endpoints: EndpointSummary[]; none: string }) {
  return (
    <section id={sectionId} aria-labelledby={`${sectionId}-heading`}>
      <h2 id={`${sectionId}-heading`} className="long-words">
        {heading}
      </h2>
      {endpoints.length === 0 ? (
        <p className="muted">{none}</p>
      ) : (
        <ul className="card entries">
          {endpoints.map((endpoint) => (
            <EndpointEntry key={endpoint.id} endpoint={endpoint} />
          ))}
        </ul>
      )}
    </section>
  );
}

export default async function WebhooksPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await currentUser();
  if (user === null) redirect(withReturnTo("/signin", "/webhooks"));
  const [endpoints, teams, query] = await Promise.all([listEndpoints(user.id), listTeams(user.id), searchParams]);
  // A team's endpoints are its admins' and owners' to see and manage.
  const managed = teams.filter((team) => hasRole(team.role, "admin"));
  const owners: OwnerChoice[] = [{ team: "", label: groupLabel(null) }, ...managed.map((team) => ({ team: team.id, label: groupLabel(team) }))];
  return (
    <>
      <h1>Webhooks</h1>
      <SettingsNav />
      <p className="muted">
        An endpoint is a URL of your services that this service sends events to as they happen: a request approved or denied, a client linked, a link or token
        revoked, a team&apos;s members changed. Each request is signed with the endpoint&apos;s secret, and tried again on a schedule until it is answered.
      </p>
      <ErrorAlert message={pageMessage(query.error)} />
      <DoneNotice message={query.deleted === "1" ? "Endpoint deleted. The events queued for it went with it." : null} />
      <EndpointGroup
        sectionId="own-endpoints"
        heading="Your endpoints"
        endpoints={endpoints.filter((endpoint) => endpoint.team === null)}
        none="No endpoints of your own yet: they receive the events of your personal projects and your own."
      />
      {managed.map((team) => (
        <EndpointGroup
          key={team.id}
          sectionId={`team-${team.id}`}
          heading={<Link href={`/teams/${team.id}`}>{groupLabel(team)}</Link>}
          endpoints={endpoints.filter((endpoint) => endpoint.team?.id === team.id)}
          none="The team has no endpoints yet: they receive the events of the team and its projects."
        />
      ))}
      <NewEndpointForm owners={owners} urlMax={ENDPOINT_URL_MAX} descriptionMax={ENDPOINT_DESCRIPTION_MAX} />
    </>
  );
}
