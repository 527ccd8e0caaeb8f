import type { Config } from "../config";
import { ApiError } from "../errors";
import { isNearby, type Proximity } from "./proximity";

// What Approve asks of the person about the code, one rule for the page and the approve
// operation (RFC 8628 §5.4, remote phishing):
// - A client that prints user_code says so at Create Init (user_code_shown); its init always needs
//   the code typed, which only the person at that terminal knows.
// - A client that shows no code (the bare specification's, the original platform's), approved
//   from the client's own network (lib/init/proximity.ts): the configured INIT_CODE_CHECK.
// - Such a client approved from elsewhere: nothing on the page can show that this person started
//   it (a checkbox beside a code they cannot compare proves nothing, and a phisher sends the code
//   along with the link), so it is `refused`: the person opens the link on the client's network,
//   or starts again with a client that shows a code (docs/pages.md).
// - An authorization request (lib/oauth/authorization-request.ts): `redirect`, nothing to type or
//   tick. Its answer goes to a loopback address through the approving browser itself (RFC 8252
//   §7.3), so a phisher who sends the link along gets nothing: the code lands on the victim's
//   own machine, and only the client that made the PKCE challenge can use it.

export type CodeCheckMode = Config["initCodeCheck"] | "refused" | "redirect";

export function codeCheckMode(configured: Config["initCodeCheck"], userCodeShown: boolean, proximity: Proximity, answeredInBrowser = false): CodeCheckMode {
  if (answeredInBrowser) return "redirect";
  if (userCodeShown) return "enter";
  return isNearby(proximity) ? configured : "refused";
}

/** The refusal of an approval from elsewhere for a client that shows no code (the link approval's too). */
export const clientElsewhere = () =>
  new ApiError("client_elsewhere", "This client shows no code, and it is not on your network. Open the link on its network, or start again with a client that shows a code.");
