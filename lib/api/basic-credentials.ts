// `Authorization: Basic` as a confidential OAuth client sends it (client_secret_basic): RFC 7617's
// base64 of `user-id:password`, where RFC 6749 §2.3.1 makes them the client_id and client_secret
// each encoded with application/x-www-form-urlencoded first. A pure function of the header.

export type BasicCredentials = { clientId: string; clientSecret: string };

// RFC 7617 §2 (RFC 7235 §2.1: the scheme is case-insensitive): one token68 of base64's alphabet.
const BASIC_HEADER = /^Basic +([A-Za-z0-9+/]+={0,2}) *$/i;

/** Whether the header names the Basic scheme, however well it is formed. */
export const isBasicHeader = (header: string): boolean => /^Basic(?: |$)/i.test(header);

/** application/x-www-form-urlencoded decoding (`+` is a space); null for a broken percent-escape. */
function formDecoded(value: string): string | null {
  try {
    return decodeURIComponent(value.replaceAll("+", " "));
  } catch {
    return null;
  }
}

/** The client's id and secret of a well-formed `Basic` header; null for anything else. */
export function basicCredentials(header: string): BasicCredentials | null {
  const encoded = BASIC_HEADER.exec(header)?.[1];
  if (encoded === undefined) return null;
  const bytes = Buffer.from(encoded, "base64");
  // Canonical base64 only (RFC 4648 §4, padded): Node's decoder would skip what it cannot read.
  if (bytes.toString("base64") !== encoded) return null;
  let pair: string;
  try {
    pair = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  // RFC 7617 §2: the user-id cannot hold a colon (a form-encoded client_id has it as %3A).
  const colon = pair.indexOf(":");
  if (colon === -1) return null;
  const clientId = formDecoded(pair.slice(0, colon));
  const clientSecret = formDecoded(pair.slice(colon + 1));
  if (clientId === null || clientSecret === null || clientId === "" || clientSecret === "") return null;
  return { clientId, clientSecret };
}
