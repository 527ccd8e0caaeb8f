import type { EndpointSummary } from "@/lib/events/endpoints";
import { LocalTime } from "../local-time";

// What the webhooks' two pages share.

/** The endpoint's state: enabled (and since when it fails, if it does), or disabled on its page or after failing for a whole retry schedule. */
export function EndpointState({ endpoint }: { endpoint: EndpointSummary }) {
  if (endpoint.disabledAt !== null && endpoint.disabledReason === "failing") {
    return (
      <>
        <span className="status status-revoked">Disabled after failing</span>{" "}
        <span className="muted">
          on <LocalTime value={endpoint.disabledAt} />: its deliveries had failed for a whole retry schedule
        </span>
      </>
    );
  }
  if (endpoint.disabledAt !== null) {
    return (
      <>
        <span className="status status-revoked">Disabled</span>{" "}
        <span className="muted">
          on its page, <LocalTime value={endpoint.disabledAt} />
        </span>
      </>
    );
  }
  if (endpoint.failingSince !== null) {
    return (
      <>
        <span className="status status-denied">Enabled, failing</span>{" "}
        <span className="muted">
          since <LocalTime value={endpoint.failingSince} />
        </span>
      </>
    );
  }
  return <span className="status status-active">Enabled</span>;
}

/** The event types an endpoint receives, by name. */
export function EventTypeNames({ types }: { types: readonly string[] }) {
  return types.map((type, at) => (
    <span key={type}>
      {at > 0 ? ", " : null}
      <code>{type}</code>
    </span>
  ));
}
