import { config } from "@/lib/config";
import { clientIdStanding } from "@/lib/oauth/client-ids";

/**
 * Beside the application's name: whether it is one of the clients the operator listed
 * (OAUTH_CLIENT_IDS). Any client may send any name, so an unlisted one is flagged and an
 * unrestricted one said to be the client's own claim.
 */
export function ClientIdNote({ name }: { name: string }) {
  const standing = clientIdStanding(config(), name);
  if (standing === "listed") return <span className="muted"> (a client this service knows)</span>;
  if (standing === "unlisted") return <strong className="flag"> (unknown to this service: the client chose this name itself)</strong>;
  return <span className="muted"> (as the client names itself)</span>;
}
