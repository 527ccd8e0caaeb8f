import { config } from "@/lib/config";
import { clientIdStanding } from "@/lib/oauth/client-ids";

/**
 * Beside the application's name: whether it is one of the clients the operator listed
 * (OAUTH_CLIENT_IDS). Any client may send any name, so an unlisted one is flagged; with no list
 * nothing is said, as every line of "Who is asking" but the observed address is the client's own
 * claim (and a phone keeps Approve on its first screen).
 */
export function ClientIdNote({ name }: { name: string }) {
  const standing = clientIdStanding(config(), name);
  if (standing === "listed") return <span className="muted"> (a client this service knows)</span>;
  if (standing === "unlisted") return <strong className="flag"> (unknown to this service: the client chose this name itself)</strong>;
  return null;
}
