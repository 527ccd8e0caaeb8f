import fc from "fast-check";
import { sessionCookieName } from "@/lib/api/session-cookie";
import { config } from "@/lib/config";
import { type BodySpec, INVALID_UTF8, bodyBytes, contentTypeArb, encodeSegment, headerText, hostileTextArb, queryArb, sometimes } from "./generators";

// Generators of hostile HTML form posts: fields, bodies, origins, cookies, return targets.

// ---------------------------------------------------------------------------------------------
// Form generators
// ---------------------------------------------------------------------------------------------
export type FormField = [name: string, value: string];

/**
 * Form fields as name/value pairs: each field's value (undefined leaves the field out), and
 * now and then the same field (or an unknown one) once more, before or after, with a hostile
 * value. Every form keeps a repeated field's first value (lib/api/body.ts): a repeat before
 * the field replaces its value, one after it is ignored; both get exercised.
 */
export function formPairsArb(fields: Record<string, fc.Arbitrary<string | undefined>>, hostileValue: fc.Arbitrary<string> = hostileTextArb()): fc.Arbitrary<FormField[]> {
  const names = Object.keys(fields);
  const repeat = fc.tuple(fc.constantFrom(...names, "extra", "__proto__", ""), hostileValue, fc.boolean());
  return fc.tuple(fc.record(fields), sometimes(fc.array(repeat, { minLength: 1, maxLength: 2 }), 3)).map(([values, repeats]) => {
    const pairs: FormField[] = names.flatMap((name): FormField[] => (values[name] === undefined ? [] : [[name, values[name]]]));
    for (const [name, value, before] of repeats ?? []) {
      if (before) pairs.unshift([name, value]);
      else pairs.push([name, value]);
    }
    return pairs;
  });
}

/** URL-encoded as a browser sends it (lone surrogates become U+FFFD, as in every USVString). */
export const urlEncoded = (pairs: FormField[]) => new URLSearchParams(pairs).toString();

/** Percent-escapes that decode to invalid UTF-8 (or are no escape at all). */
const BAD_ESCAPES = ["%ff", "%fe%ff", "%c3%28", "%c0%af", "%ed%a0%80", "%f4%90%80%80", "%e2%82", "%80", "%", "%z", "%zz", "%%", "%0", "%00", "%u0041"];

/**
 * Bodies for an HTML form route: the fields URL-encoded (mostly), with raw or escaped invalid
 * UTF-8 spliced in, none, garbage, JSON, binary, and bodies around and over `limitBytes`
 * (`hugePrefix` then filler), whole or streamed in small chunks.
 */
export function formBodySpecArb(pairs: fc.Arbitrary<FormField[]>, limitBytes: number, hugePrefix: string): fc.Arbitrary<BodySpec> {
  const encoded = pairs.map(urlEncoded);
  const splice = (text: string, at: number, inserted: number[]) => {
    const cut = text.length === 0 ? 0 : at % (text.length + 1);
    return [...Buffer.from(text.slice(0, cut), "utf8"), ...inserted, ...Buffer.from(text.slice(cut), "utf8")];
  };
  return fc.oneof(
    { withCrossShrink: true },
    { arbitrary: encoded.map((text): BodySpec => ({ kind: "text", text })), weight: 12 },
    { arbitrary: fc.tuple(encoded, fc.constantFrom(1, 7, 64)).map(([text, chunked]): BodySpec => ({ kind: "text", text, chunked })), weight: 1 },
    {
      arbitrary: fc.tuple(encoded, fc.nat(), fc.constantFrom(...INVALID_UTF8)).map(([text, at, bad]): BodySpec => ({ kind: "bytes", bytes: splice(text, at, bad) })),
      weight: 2,
    },
    {
      arbitrary: fc.tuple(encoded, fc.nat(), fc.constantFrom(...BAD_ESCAPES)).map(([text, at, bad]): BodySpec => ({ kind: "bytes", bytes: splice(text, at, [...Buffer.from(bad)]) })),
      weight: 2,
    },
    { arbitrary: fc.constant<BodySpec>({ kind: "none" }), weight: 1 },
    {
      arbitrary: fc
        .constantFrom("", "&", "&&&", "=", "==", "=&=", "%", "%zz", "+", "email", "password", "email=&password=", "\u0000", "a=b;c=d", "a[]=1&a[]=2", '{"email":"a@example.com"}', "<html>")
        .map((text): BodySpec => ({ kind: "text", text })),
      weight: 2,
    },
    { arbitrary: pairs.map((fields): BodySpec => ({ kind: "text", text: JSON.stringify(Object.fromEntries(fields)) })), weight: 1 },
    { arbitrary: fc.string({ unit: "binary", maxLength: 200 }).map((text): BodySpec => ({ kind: "text", text })), weight: 1 },
    { arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes): BodySpec => ({ kind: "bytes", bytes: [...bytes] })), weight: 1 },
    {
      arbitrary: fc
        .tuple(fc.constantFrom(limitBytes - 1, limitBytes, limitBytes + 1, 2 * limitBytes, 100_000), fc.constantFrom("a", "%41", "é", "&", "\u202e"), sometimes(fc.constantFrom(1, 1024), 1))
        .map(([bytes, fill, chunked]): BodySpec => ({ kind: "huge", prefix: hugePrefix, fill, bytes, suffix: "", chunked })),
      weight: 2,
    },
  );
}

/** The field values a form body carries, as the server reads them (to know which passwords to look for). */
export function formValuesOf(spec: BodySpec, name: string): string[] {
  const bytes = bodyBytes(spec);
  return bytes === null ? [] : new URLSearchParams(new TextDecoder().decode(bytes)).getAll(name);
}

/** Content-Type of a form post: mostly the form type (as browsers spell it), else anything. */
export function formContentTypeArb(): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { withCrossShrink: true },
    { arbitrary: fc.constantFrom("application/x-www-form-urlencoded", "application/x-www-form-urlencoded;charset=UTF-8", "APPLICATION/X-WWW-FORM-URLENCODED", " application/x-www-form-urlencoded ; charset=latin1"), weight: 8 },
    { arbitrary: fc.constantFrom("multipart/form-data; boundary=----x", "application/x-www-form-urlencoded, text/plain", "application/x-www-form-urlencodedx", "text/x-www-form-urlencoded"), weight: 1 },
    { arbitrary: contentTypeArb(), weight: 2 },
  );
}

export type OriginHeaders = { origin?: string; fetchSite?: string };

/**
 * Origin and Sec-Fetch-Site: mostly what this site's own page sends (Origin equal to `site`, or
 * none or "null" with Sec-Fetch-Site: same-origin), else missing, null, another site, look-alikes
 * of this one, and garbage.
 */
export function formOriginArb(site: string): fc.Arbitrary<OriginHeaders> {
  return fc.oneof(
    { withCrossShrink: true },
    {
      arbitrary: fc.constantFrom<OriginHeaders>(
        { origin: site },
        { origin: site, fetchSite: "same-origin" },
        { origin: site, fetchSite: "cross-site" },
        { origin: "null", fetchSite: "same-origin" },
        { fetchSite: "same-origin" },
      ),
      weight: 14,
    },
    {
      arbitrary: fc.record(
        {
          origin: fc.constantFrom(
            "null",
            "https://evil.example",
            `${site}/`,
            site.toUpperCase(),
            `${site}:443`,
            site.replace(/^https:/, "http:"),
            `${site}.evil.example`,
            `https://evil.example/${site}`,
            "",
            ` ${site}`,
            `${site}, https://evil.example`,
            "null, null",
            "file://",
          ),
          fetchSite: fc.constantFrom("same-origin", "same-site", "cross-site", "none", "SAME-ORIGIN", " same-origin", "same-origin, cross-site", ""),
        },
        { requiredKeys: [] },
      ),
      weight: 4,
    },
    { arbitrary: fc.record({ origin: headerText(40), fetchSite: headerText(20) }, { requiredKeys: [] }), weight: 1 },
  );
}

/** Placeholders of sessionCookieArb's values, filled in when the request is made. */
export type CookieSessions = { session: string; signedOut: string };

/**
 * The Cookie header, as a template: `{session}` (a valid session), `{SESSION}` (the same,
 * upper-cased) and `{signedOut}` (a session that was signed out) are filled in by fillCookie.
 * Mostly the valid session; else none, a signed-out one, near misses, duplicates and garbage.
 */
export function sessionCookieArb(validWeight = 16): fc.Arbitrary<string | undefined> {
  const name = sessionCookieName(config());
  return fc.oneof(
    { withCrossShrink: true },
    { arbitrary: fc.constant(`${name}={session}`), weight: validWeight },
    { arbitrary: fc.constant(undefined), weight: 2 },
    {
      arbitrary: fc.constantFrom(
        `${name}={signedOut}`,
        `initlink_session={session}`,
        `${name}={session}x`,
        `${name}={SESSION}`,
        `${name}=`,
        `${name}=${"a".repeat(101)}`,
        `${name}="{session}"`,
        `other=1; ${name}={session}; ${name}=evil`,
        `${name}=evil; ${name}={session}`,
        ` ${name} = {session} `,
        `${name}={signedOut}; ${name}={session}`,
        `${name.toLowerCase()}={session}`,
      ),
      weight: 3,
    },
    { arbitrary: headerText(80).map((value) => `${name}=${value.replace(/[{}]/g, "")}`), weight: 1 },
    { arbitrary: headerText(80).map((value) => value.replace(/[{}]/g, "")), weight: 1 },
  );
}

export function fillCookie(template: string, sessions: CookieSessions): string {
  return template.replaceAll("{session}", sessions.session).replaceAll("{SESSION}", sessions.session.toUpperCase()).replaceAll("{signedOut}", sessions.signedOut);
}

/** Return targets that have opened redirects elsewhere, and harmless ones. */
export const HOSTILE_RETURN_TO = [
  "//evil.example",
  "///evil.example",
  "https://evil.example",
  "https://evil.example/",
  "http:evil.example",
  "https:/evil.example",
  "/\\evil.example",
  "\\\\evil.example",
  "/\\/evil.example",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(document.cookie)",
  "data:text/html,<script>alert(1)</script>",
  // Dot segments that a URL parser removes, leaving a path that starts with "//".
  "/.//evil.example",
  "/..//evil.example",
  "/././/evil.example",
  "/a/..//evil.example",
  "/a/b/../..//evil.example",
  "/%2e//evil.example",
  "/.%2e//evil.example",
  "/%2E%2E//evil.example",
  "/./\\evil.example",
  "/%2F/evil.example",
  "/%2f%2fevil.example",
  "/%5Cevil.example",
  "/%5C%5Cevil.example",
  "/\t/evil.example",
  "/\r\n/evil.example",
  " //evil.example",
  "\u0000//evil.example",
  "/@evil.example",
  "https://initlink.test@evil.example",
  "https://initlink.test.evil.example/",
  "//initlink.test@evil.example",
  "/\u2215\u2215evil.example",
  "/\uff0f\uff0fevil.example",
  "/%0d%0aLocation:%20https://evil.example",
  "/init/abc",
  "/projects?tab=1",
  "/settings/tokens",
  "/init/x?error=internal_error",
  "/",
  "",
];

/**
 * The query of a form post: none, a `returnTo` (hostile or harmless; encoded, raw, double-encoded,
 * repeated), or queryArb's garbage.
 */
export function returnToQueryArb(): fc.Arbitrary<string> {
  const target = fc.oneof({ arbitrary: fc.constantFrom(...HOSTILE_RETURN_TO), weight: 6 }, { arbitrary: hostileTextArb(), weight: 1 });
  return fc.oneof(
    { withCrossShrink: true },
    { arbitrary: fc.constant(""), weight: 3 },
    { arbitrary: target.map((value) => `?returnTo=${encodeSegment(value)}`), weight: 6 },
    { arbitrary: target.map((value) => `?returnTo=${value}`), weight: 2 },
    { arbitrary: target.map((value) => `?returnTo=${encodeURIComponent(encodeSegment(value))}`), weight: 1 },
    { arbitrary: fc.tuple(target, target).map(([a, b]) => `?returnTo=${encodeSegment(a)}&returnTo=${encodeSegment(b)}`), weight: 1 },
    { arbitrary: target.map((value) => `?error=internal_error&returnTo=${encodeSegment(value)}`), weight: 1 },
    { arbitrary: queryArb(), weight: 1 },
  );
}

/**
 * A path parameter as Next.js hands it to a handler: the request's raw segment run through
 * decodeURIComponent (next/dist/shared/lib/router/utils/route-matcher.js; a segment that does
 * not decode is a 400 before any handler runs, so a handler never sees a lone surrogate). Either
 * `segment` is sent encoded (the handler gets it back, lone surrogates as U+FFFD), or, when it
 * is itself a decodable path segment (`%2F`, `%00`, `%252F`), as it is (the handler gets it decoded).
 */
export function pathParam(segment: string, raw: boolean): { inUrl: string; param: string } {
  if (raw && !/[/?#\\]|^\.{1,2}$/.test(segment) && !/[\ud800-\udfff]/.test(segment)) {
    try {
      return { inUrl: segment, param: decodeURIComponent(segment) };
    } catch {
      // not decodable: sent encoded instead
    }
  }
  const inUrl = encodeSegment(segment);
  return { inUrl, param: decodeURIComponent(inUrl) };
}
