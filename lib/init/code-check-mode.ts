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
// - An authorization request (lib/oauth/authorization-request.ts), in the browser that opened it
//   (lib/init/authorizing-browser.ts): `redirect`, nothing to type or tick. The answer goes to a
//   loopback port through that browser (RFC 8252 §7.3), on the machine where the application
//   asked, and only the client that made the PKCE challenge can use the code. In any other
//   browser (a forwarded link): `other_browser`, Deny only.

export type CodeCheckMode = Config["initCodeCheck"] | "refused" | "redirect" | "other_browser";

/** Whether an init is an authorization request, and if so whether this browser opened it. */
export type AuthorizationBrowser = "no_request" | "this_browser" | "other_browser";

export function codeCheckMode(configured: Config["initCodeCheck"], userCodeShown: boolean, proximity: Proximity, authorization: AuthorizationBrowser): CodeCheckMode {
  if (authorization === "this_browser") return "redirect";
  if (authorization === "other_browser") return "other_browser";
  if (userCodeShown) return "enter";
  return isNearby(proximity) ? configured : "refused";
}

/** The refusal of an authorization request's approval in a browser other than the one it was opened in. */
export const otherBrowser = () =>
  new ApiError("other_browser", "This request was opened in another browser: approve it in the browser the application opened, or deny it here.");

/** The refusal of an approval from elsewhere for a client that shows no code (the link approval's too). */
export const clientElsewhere = () =>
  new ApiError("client_elsewhere", "This client shows no code, and it is not on your network. Open the link on its network, or start again with a client that shows a code.");
