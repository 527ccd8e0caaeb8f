// Where an authorization response may go (RFC 6749 §3.1.2). A command-line or desktop client is
// a native app: it catches the answer on a loopback port it opened for the login (RFC 8252
// §7.3), so a loopback URI on any port is its redirect URI, and it needs no registration. The IP
// literals, and `localhost`, which RFC 8252 §8.3 advises against (a host file may point it
// elsewhere) but which the clients of the Model Context Protocol send, and browsers resolve to
// loopback themselves. Plain http is right here: the answer never leaves the machine. No
// fragment (RFC 6749 §3.1.2), no credentials, and none of the answer's parameter names in the
// query, so the answer's cannot be shadowed.

/** A redirect URI's longest accepted form; a loopback URI is short. */
export const REDIRECT_URI_MAX = 500;

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

/** The parameters the authorization response adds (RFC 6749 §4.1.2, §4.1.2.1; RFC 9207 §2). */
const RESPONSE_PARAMETERS = ["code", "state", "iss", "error", "error_description", "error_uri"];

/** The loopback redirect URI `value` as a URL, or null when it is none a native client may name. */
export function loopbackRedirectUri(value: string): URL | null {
  if (value.length > REDIRECT_URI_MAX || !value.startsWith("http://")) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" || !LOOPBACK_HOSTS.has(url.hostname) || url.username !== "" || url.password !== "" || value.includes("#")) return null;
  if (RESPONSE_PARAMETERS.some((name) => url.searchParams.has(name))) return null;
  // Written as the URL parser writes it back: no escapes or forms it would have changed.
  return url.href === value || url.href === `${value}/` ? url : null;
}

/** The authorization response: `redirectUri` with `parameters` added to its query, which is kept as written (RFC 6749 §3.1.2). */
export function authorizationResponse(redirectUri: string, parameters: Record<string, string | null>): string {
  const added = new URLSearchParams(Object.entries(parameters).filter((entry): entry is [string, string] => entry[1] !== null)).toString();
  const separator = redirectUri.includes("?") ? (redirectUri.endsWith("?") || redirectUri.endsWith("&") ? "" : "&") : "?";
  return `${redirectUri}${separator}${added}`;
}
