import type { Config } from "../config";
import { ApiError } from "../errors";

// Which client_ids the device authorization accepts (OAUTH_CLIENT_IDS). A command-line client is
// a public client (RFC 6749 §2.1): it holds no secret, so its client_id is a name it chose, and a
// list only keeps other names out of the flow; anyone can still send a listed name. The approval
// page says which of these a request's application name is.

/**
 * "listed": on the configured list; "unlisted": a list is configured and the name is not on it
 * (an init made through Create Init, whose sender the list does not restrict); "unrestricted":
 * no list, any name is accepted.
 */
export type ClientIdStanding = "listed" | "unlisted" | "unrestricted";

export function clientIdStanding(cfg: Config, clientId: string): ClientIdStanding {
  if (cfg.oauthClientIds === null) return "unrestricted";
  return cfg.oauthClientIds.includes(clientId) ? "listed" : "unlisted";
}

/** RFC 6749 §5.2 invalid_client: a client_id the operator did not list. */
export function assertClientIdAccepted(cfg: Config, clientId: string): void {
  if (clientIdStanding(cfg, clientId) === "unlisted") throw new ApiError("invalid_client", "This client_id is not accepted here.");
}
