// RFC 7240 `Prefer: wait=<seconds>`: how long a client lets the server hold a request until
// something changes. The header is parsed as the RFC's grammar says, so that a client's other
// preferences, odd spacing or spelling never hide its wait, and a malformed one is ignored
// (§2: a preference the server does not understand is ignored, never an error).

/** The longest a request is held, whatever the client asks for; said in `Preference-Applied`. */
export const WAIT_CAP_SECONDS = 60;

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The preferences of a Prefer header's value: name (lower case) → value ("" when none), first instance of each kept. */
export function parsePreferences(header: string): Map<string, string> {
  const preferences = new Map<string, string>();
  for (const item of splitOutsideQuotes(header, ",")) {
    // preference = token [ BWS "=" BWS word ] *( OWS ";" [ OWS parameter ] ) (RFC 7240 §2)
    const [first] = splitOutsideQuotes(item, ";");
    const equals = first.indexOf("=");
    const name = (equals === -1 ? first : first.slice(0, equals)).trim().toLowerCase();
    if (!TOKEN.test(name)) continue;
    const value = equals === -1 ? "" : unquote(first.slice(equals + 1).trim());
    if (value === null) continue;
    // §2: a preference given more than once counts in its first instance only.
    if (!preferences.has(name)) preferences.set(name, value);
  }
  return preferences;
}

/**
 * The wait to apply for a request's Prefer header, in whole seconds up to the cap, or null when
 * it asks for none (or for one that is not delta-seconds).
 */
export function preferredWait(header: string | null): number | null {
  if (header === null) return null;
  const value = parsePreferences(header).get("wait");
  // RFC 7240 §4.3: wait = "wait" BWS "=" BWS delta-seconds (RFC 7234 §1.2.1: 1*DIGIT).
  if (value === undefined || !/^\d{1,12}$/.test(value)) return null;
  return Math.min(Number(value), WAIT_CAP_SECONDS);
}

/** `text` split at `separator`, except inside a quoted-string. */
function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (quoted && char === "\\") {
      current += char + (text[index + 1] ?? "");
      index++;
      continue;
    }
    if (char === '"') quoted = !quoted;
    if (char === separator && !quoted) {
      parts.push(current);
      current = "";
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts;
}

/** word = token / quoted-string; null when it is neither. */
function unquote(word: string): string | null {
  if (TOKEN.test(word)) return word;
  const quoted = /^"((?:[^"\\]|\\.)*)"$/.exec(word);
  return quoted === null ? null : quoted[1].replace(/\\(.)/g, "$1");
}
