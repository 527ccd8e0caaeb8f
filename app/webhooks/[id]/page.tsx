import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { currentUser } from "@/lib/api/page-session";
import { withReturnTo } from "@/lib/api/return-to";
import { pageMessage } from "@/lib/errors";
import { viewEndpoint, type DeliveryAttempt, type EndpointView } from "@/lib/events/endpoints";
import { MAX_OVERLAP_HOURS } from "@/lib/events/schemas";
import { DoneNotice, ErrorAlert } from "../../form-parts";
import { LocalTime } from "../../local-time";
import { groupLabel } from "../../project-groups";
import { SettingsNav } from "../../settings/settings-nav";
import { orNotFound } from "../../teams/team-parts";
import { EndpointState, EventTypeNames } from "../endpoint-parts";
import { RotateSecretForm } from "./rotate-secret-form";

export const metadata: Metadata = { title: "Webhook endpoint" };

type Query = Record<string, string | string[] | undefined>;

/** What a form that brought the person back here did (its route's redirect says which). */
const NOTICES: [flag: string, message: string][] = [
  ["tested", "Test event queued: it is sent within seconds. Reload the page to see its delivery below."],
  ["resent", "Queued to be sent again, from the start of its retry schedule and with the same webhook-id. Reload the page to see its delivery below."],
  ["enabled", "Enabled. New events are queued for it again, and those that waited are sent."],
  ["disabled", "Disabled. No new events are queued for it; those queued already wait until it is enabled again."],
];

const endpointPath = (id: string) => `/webhooks/${encodeURIComponent(id)}`;

function Facts({ endpoint }: { endpoint: EndpointView }) {
  return (
    <dl className="card facts">
      <dt>URL</dt>
      <dd>
        <code className="url">{endpoint.url}</code>
      </dd>
      {endpoint.description === "" ? null : (
        <>
          <dt>Description</dt>
          <dd>{endpoint.description}</dd>
        </>
      )}
      <dt>Belongs to</dt>
      <dd>{endpoint.team === null ? groupLabel(null) : <Link href={`/teams/${endpoint.team.id}`}>{groupLabel(endpoint.team)}</Link>}</dd>
      <dt>Events</dt>
      <dd>
        <EventTypeNames types={endpoint.types} />
      </dd>
      <dt>State</dt>
      <dd>
        <EndpointState endpoint={endpoint} />
      </dd>
      {endpoint.previousSecretUntil === null ? null : (
        <>
          <dt>Previous secret</dt>
          <dd>
            still signs until <LocalTime value={endpoint.previousSecretUntil} />
          </dd>
        </>
      )}
      <dt>Queued</dt>
      <dd>{endpoint.pending === 0 ? "nothing" : endpoint.pending === 1 ? "1 event" : `${endpoint.pending} events`}</dd>
      <dt>Added</dt>
      <dd>
        <LocalTime value={endpoint.createdAt} />
      </dd>
    </dl>
  );
}

/** Send a test event, Disable or Enable, Rotate secret, and Delete (confirmed first, as a team's deletion is). */
function Manage({ endpoint }: { endpoint: EndpointView }) {
  const path = endpointPath(endpoint.id);
  const enabled = endpoint.disabledAt === null;
  return (
    <section aria-labelledby="manage">
      <h2 id="manage">Manage</h2>
      <div className="button-row">
        <form method="post" action={`${path}/test`}>
          <button type="submit" className="secondary" aria-describedby="test-hint">
            Send test event
          </button>
        </form>
        <form method="post" action={`${path}/${enabled ? "disable" : "enable"}`}>
          <button type="submit" className="secondary" aria-describedby="enabled-hint">
            {enabled ? "Disable" : "Enable"}
          </button>
        </form>
      </div>
      <p className="hint" id="test-hint">
        A test event (<code>webhook.test</code>) goes to this endpoint alone, at once (while it is disabled, once it is enabled).
      </p>
      <p className="hint" id="enabled-hint">
        {enabled
          ? "Disabled, it gets no new events, and those queued already wait until it is enabled again."
          : "Enabled, it gets new events again, and those that waited are sent."}
      </p>
      <RotateSecretForm endpointId={endpoint.id} maxOverlapHours={MAX_OVERLAP_HOURS} />
      <details className="confirm">
        <summary>Delete…</summary>
        <form method="post" action={`${path}/delete`} className="stack">
          <p className="long-words">
            Delete the endpoint <code className="url">{endpoint.url}</code>? It gets no more events; those queued for it and its delivery log go with it. This
            cannot be undone.
          </p>
          <button type="submit" className="danger">
            Yes, delete the endpoint
          </button>
        </form>
      </details>
    </section>
  );
}

/** What became of the attempt's message: delivered, failed for good, or when it is tried next (waiting while the endpoint is disabled). */
function MessageState({ attempt, disabled }: { attempt: DeliveryAttempt; disabled: boolean }) {
  if (attempt.outcome === "delivered") return <span className="status status-active">Delivered</span>;
  if (attempt.outcome === "failed") return <span className="status status-revoked">Failed</span>;
  if (disabled || attempt.nextAttemptAt === null) return <span className="status">Waiting</span>;
  return (
    <>
      <span className="status status-pending">Next attempt</span> <LocalTime value={attempt.nextAttemptAt} />
    </>
  );
}

/**
 * The delivery log, newest first: one row an attempt, with what its message became. Send again
 * only on the newest attempt of a message that has ended (a message still being tried is tried
 * anyway). A table on a desktop; on a phone each row stacks its cells, each under its label.
 */
function Deliveries({ endpoint }: { endpoint: EndpointView }) {
  const offered = new Set<string>();
  return (
    <section aria-labelledby="deliveries">
      <h2 id="deliveries">Deliveries</h2>
      <p className="muted">
        The latest attempts, newest first: when each was sent, what answered (and the first 1 KiB of its answer), and what became of the event. An event that
        is not delivered is tried again on the retry schedule.
      </p>
      {endpoint.attempts.length === 0 ? (
        <p className="muted">Nothing sent yet. Send a test event to try the endpoint.</p>
      ) : (
        <table className="card delivery-log" aria-labelledby="deliveries">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Event</th>
              <th scope="col">Attempt</th>
              <th scope="col">Answer</th>
              <th scope="col">Duration</th>
              <th scope="col">Delivery</th>
            </tr>
          </thead>
          <tbody>
            {endpoint.attempts.map((attempt) => {
              const rowId = `attempt-${attempt.id}`;
              const resendable = attempt.outcome !== null && !offered.has(attempt.messageId);
              offered.add(attempt.messageId);
              return (
                <tr key={attempt.id}>
                  <td data-label="Time" id={`${rowId}-time`}>
                    <LocalTime value={attempt.startedAt} />
                  </td>
                  <td data-label="Event" id={`${rowId}-event`}>
                    <code>{attempt.type}</code>
                  </td>
                  <td data-label="Attempt">{attempt.attempt}</td>
                  <td data-label="Answer" className="answer">
                    {attempt.statusCode === null ? <span className="flag">{attempt.error}</span> : <code>{attempt.statusCode}</code>}
                    {attempt.responseBody ? (
                      <details className="more">
                        <summary aria-describedby={`${rowId}-event ${rowId}-time`}>Response body</summary>
                        <pre className="response-body">{attempt.responseBody}</pre>
                      </details>
                    ) : null}
                  </td>
                  <td data-label="Duration">{attempt.durationMs} ms</td>
                  <td data-label="Delivery">
                    <MessageState attempt={attempt} disabled={endpoint.disabledAt !== null} />
                    {resendable ? (
                      <form method="post" action={`${endpointPath(endpoint.id)}/deliveries/${encodeURIComponent(attempt.messageId)}/resend`}>
                        <button type="submit" className="secondary" aria-describedby={`${rowId}-event ${rowId}-time`}>
                          Send again
                        </button>
                      </form>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}

export default async function EndpointPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Query> }) {
  const { id } = await params;
  const user = await currentUser();
  if (user === null) redirect(withReturnTo("/signin", endpointPath(id)));
  // One the person may not manage reads as one that does not exist: the not-found page.
  const [endpoint, query] = await Promise.all([orNotFound(viewEndpoint(user.id, id)), searchParams]);
  return (
    <>
      <h1>Webhook endpoint</h1>
      <SettingsNav />
      <ErrorAlert message={pageMessage(query.error)} />
      {NOTICES.map(([flag, message]) => (
        <DoneNotice key={flag} message={query[flag] === "1" ? message : null} />
      ))}
      <Facts endpoint={endpoint} />
      <Manage endpoint={endpoint} />
      <Deliveries endpoint={endpoint} />
      <p>
        <Link href="/webhooks">All webhook endpoints</Link>
      </p>
    </>
  );
}
