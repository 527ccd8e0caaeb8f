import fc from "fast-check";


// Generators of hostile strings, credentials, headers, bodies and requests for the API routes.

// ---------------------------------------------------------------------------------------------
// Strings
// ---------------------------------------------------------------------------------------------
/** Undefined `absentWeight` times out of `absentWeight + 1`, else a value of `arbitrary`. */
export const sometimes = <T>(arbitrary: fc.Arbitrary<T>, absentWeight = 3): fc.Arbitrary<T | undefined> =>
  fc.oneof({ withCrossShrink: true }, { arbitrary: fc.constant(undefined), weight: absentWeight }, { arbitrary, weight: 1 });

const char = (from: number, to: number) => fc.integer({ min: from, max: to }).map((code) => String.fromCharCode(code));

/** What a header value can hold as Node's HTTP parser hands it over: tab, visible ASCII, and bytes 0x80–0xFF read as Latin-1. */
const headerChar = fc.oneof({ arbitrary: char(0x20, 0x7e), weight: 8 }, { arbitrary: char(0x80, 0xff), weight: 2 }, { arbitrary: fc.constant("\t"), weight: 1 });
export const headerText = (maxLength = 80) => fc.string({ unit: headerChar, maxLength });

/** UTF-8 text as a header carries it: its bytes, each read as a Latin-1 character. */
export const asHeaderBytes = (text: string) => Buffer.from(text, "utf8").toString("latin1");

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
export const base64urlText = (minLength: number, maxLength: number) => fc.string({ unit: fc.constantFrom(...BASE64URL), minLength, maxLength });
export const hexText = (minLength: number, maxLength: number) => fc.string({ unit: fc.constantFrom(..."0123456789abcdefABCDEF"), minLength, maxLength });
export const randomIdText = () => base64urlText(22, 22);

/** Path segments and strings that have broken parsers before. */
export const HOSTILE_ATOMS = [
  "",
  " ",
  ".",
  "..",
  "../..",
  "..%2F..",
  "%2e%2e",
  "%00",
  "%2F",
  "%2f",
  "%252F",
  "%",
  "%zz",
  "%E0%A4%A",
  "%C3%28",
  "%ED%A0%80",
  "%FF",
  "\u0000",
  "/",
  "\\",
  "?",
  "#",
  ";",
  "*",
  "'",
  '"',
  "<script>alert(1)</script>",
  "${jndi:ldap://x}",
  "\u202e",
  "\u202egnp.exe",
  "\u200f",
  "\u2066",
  "\ufeff",
  "\t",
  "\n",
  "\r\n",
  " \t ",
  "\u00a0",
  "\u3000",
  "\ud800",
  "\udfff",
  "😀",
  "A\u0301",
  "İ",
  "ﬀ",
  "null",
  "undefined",
  "NaN",
  "-1",
  "0",
  "1e309",
  "[object Object]",
  "__proto__",
  "constructor",
];

/**
 * Percent-escapes that do not decode as UTF-8, as a path carries them unencoded: cut short, not
 * hexadecimal, a truncated or overlong sequence, an escaped surrogate, a lone continuation byte.
 * Next's own path decoding answered them with a plain-text 500.
 */
export const UNDECODABLE_ESCAPES = ["%", "%z", "%zz", "%4", "%E0%A4%A", "%E0%A4", "%C3%28", "%C0%AF", "%ED%A0%80", "%F4%90%80%80", "%80", "%FF", "%FE%FF"];

/** A path segment as sent on the wire (not encoded again): a well-formed one with an undecodable escape before, inside or after it. */
export function undecodableSegmentArb(known: string[]): fc.Arbitrary<string> {
  return fc
    .tuple(fc.oneof(fc.constantFrom(...known), randomIdText(), fc.constant("")), fc.constantFrom(...UNDECODABLE_ESCAPES), fc.nat())
    .map(([value, escape, at]) => {
      const index = at % (value.length + 1);
      const inserted = value.slice(0, index) + escape + value.slice(index);
      // A cut-short escape followed by hex digits may become a valid one ("%4" + "1…"): at the end it never does.
      return decodes(inserted) ? value + escape : inserted;
    });
}

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/** Any UTF-16 code units, lone surrogates included (what JSON's "\\ud800" escapes decode to). */
export const utf16Text = (maxLength: number) => fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), maxLength });

/** A hostile text value for a body field: an atom alone or inside ordinary text, or random code units. */
export function hostileTextArb(): fc.Arbitrary<string> {
  const atom = fc.constantFrom(...HOSTILE_ATOMS);
  // What databases and their drivers choke on: NUL (PostgreSQL text) and lone surrogates (not UTF-8).
  const storageHostile = fc.constantFrom("\u0000", "a\u0000b", "\ud800", "\udfff", "x\ud83d", "\udc00y");
  return fc.oneof(
    { arbitrary: atom, weight: 3 },
    { arbitrary: storageHostile, weight: 3 },
    { arbitrary: fc.tuple(fc.string({ maxLength: 10 }), atom, fc.string({ maxLength: 10 })).map((parts) => parts.join("")), weight: 3 },
    { arbitrary: utf16Text(20), weight: 2 },
    { arbitrary: fc.string({ unit: "binary", maxLength: 20 }), weight: 1 },
    { arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }), weight: 1 },
  );
}

/** `valid` with a random non-empty subset of its fields replaced by `hostile` values (one bad field among good ones). */
export function oneBadField<T extends Record<string, unknown>>(valid: T, hostile: fc.Arbitrary<unknown>): fc.Arbitrary<Record<string, unknown>> {
  const keys = Object.keys(valid);
  return fc
    .tuple(fc.subarray(keys, { minLength: 1, maxLength: 2 }), fc.array(hostile, { minLength: 2, maxLength: 2 }))
    .map(([bad, values]) => ({ ...valid, ...Object.fromEntries(bad.map((key, index) => [key, values[index]])) }));
}

const hugeString = fc
  .tuple(fc.constantFrom("A", "0", "f", "é", "%2F", "..", "\u202e", "😀", " ", "\u0000"), fc.integer({ min: 9_990, max: 10_010 }))
  .map(([unit, count]) => unit.repeat(count));

/**
 * A path segment: one of `known` (real ids or ivs of the fixtures), a variant of one, or
 * something hostile: empty, huge (10k), unicode, `..`, `%00`, `%2F`, NUL, RTL overrides,
 * white space, random ids.
 */
export function segmentArb(known: string[], wellFormed: fc.Arbitrary<string> = randomIdText()): fc.Arbitrary<string> {
  const knownValue = fc.constantFrom(...known);
  const atom = fc.constantFrom(...HOSTILE_ATOMS);
  return fc.oneof(
    { arbitrary: knownValue, weight: 4 },
    {
      arbitrary: fc.tuple(knownValue, atom, fc.constantFrom("prefix", "suffix", "both")).map(([value, extra, where]) =>
        where === "prefix" ? extra + value : where === "suffix" ? value + extra : extra + value + extra,
      ),
      weight: 3,
    },
    { arbitrary: knownValue.chain((value) => fc.mixedCase(fc.constant(value))), weight: 1 },
    { arbitrary: fc.tuple(knownValue, fc.integer({ min: 1, max: 3 })).map(([value, cut]) => value.slice(0, Math.max(0, value.length - cut))), weight: 1 },
    { arbitrary: fc.tuple(knownValue, fc.nat()).map(([value, at]) => flipChar(value, at)), weight: 1 },
    { arbitrary: wellFormed, weight: 2 },
    { arbitrary: atom, weight: 3 },
    { arbitrary: fc.array(fc.oneof(atom, fc.string({ unit: "binary", maxLength: 8 })), { minLength: 2, maxLength: 6 }).map((parts) => parts.join("")), weight: 2 },
    { arbitrary: fc.string({ unit: "binary", maxLength: 64 }), weight: 2 },
    { arbitrary: fc.string({ unit: "grapheme", maxLength: 30 }), weight: 1 },
    { arbitrary: hugeString, weight: 1 },
  );
}

/** Replaces one character with another of the same alphabet (a near miss). */
export function flipChar(value: string, at: number): string {
  if (value.length === 0) return "A";
  const index = at % value.length;
  const next = value[index] === "A" ? "B" : "A";
  return value.slice(0, index) + next + value.slice(index + 1);
}

/** ivs: real ones of the fixtures, hexadecimal of every length around 32–128, near misses. */
export function ivArb(known: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: segmentArb(known, hexText(32, 32)), weight: 4 },
    { arbitrary: fc.constantFrom(0, 1, 31, 32, 33, 64, 127, 128, 129, 256).chain((length) => hexText(length, length)), weight: 3 },
    { arbitrary: hexText(0, 140), weight: 1 },
    { arbitrary: fc.tuple(hexText(32, 40), fc.constantFrom("g", "G", "x", " ", "-", "\u0000", "٠", "０", "%20")).map(([hex, bad]) => hex.slice(0, 16) + bad + hex.slice(16)), weight: 2 },
    { arbitrary: hexText(32, 32).map((hex) => `0x${hex}`), weight: 1 },
  );
}

// ---------------------------------------------------------------------------------------------
// Credentials and Authorization
// ---------------------------------------------------------------------------------------------
const b64json = (value: unknown) => Buffer.from(JSON.stringify(value) ?? "null", "utf8").toString("base64url");

/** Random three-part, dot-separated base64url strings, some with JOSE-looking headers. */
export function jwtShapedArb(kids: string[], projectIds: string[]): fc.Arbitrary<string> {
  const header = fc.oneof(
    fc.record({
      alg: fc.constantFrom("none", "None", "HS256", "RS256", "ES256", "EdDSA", "Ed25519", ""),
      kid: fc.option(fc.oneof(fc.constantFrom(...kids, "../../etc/passwd", ""), base64urlText(0, 30)), { nil: undefined }),
      typ: fc.option(fc.constantFrom("at+jwt", "JWT", "jwt"), { nil: undefined }),
    }),
    fc.jsonValue({ maxDepth: 2 }),
  );
  const payload = fc.oneof(
    fc.record({
      project_id: fc.option(fc.oneof(fc.constantFrom(...projectIds), randomIdText()), { nil: undefined }),
      sub: fc.option(fc.oneof(randomIdText(), fc.integer(), fc.constant(null)), { nil: undefined }),
      iss: fc.option(fc.constantFrom("https://initlink.test", "https://evil.example", ""), { nil: undefined }),
      aud: fc.option(fc.oneof(fc.constantFrom(...projectIds).map((id) => `https://initlink.test/api/projects/${id}`), fc.constant(["x", 1])), { nil: undefined }),
      exp: fc.option(fc.oneof(fc.integer(), fc.constant(1e308), fc.constant("tomorrow")), { nil: undefined }),
      iat: fc.option(fc.integer(), { nil: undefined }),
      jti: fc.option(base64urlText(0, 22), { nil: undefined }),
    }),
    fc.jsonValue({ maxDepth: 2 }),
  );
  const signature = fc.oneof(fc.constant(""), base64urlText(1, 90), fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString("base64url")));
  return fc.oneof(
    fc.tuple(header, payload, signature).map(([h, p, s]) => `${b64json(h)}.${b64json(p)}.${s}`),
    fc.tuple(base64urlText(0, 40), base64urlText(0, 80), base64urlText(0, 90)).map((parts) => parts.join(".")),
    fc.array(base64urlText(0, 20), { minLength: 1, maxLength: 6 }).map((parts) => parts.join(".")),
  );
}

/** A real JWT with one part changed: header, payload (claims edited, signature kept) or signature. */
export function tamperedJwtArb(jwts: string[]): fc.Arbitrary<string> {
  return fc.tuple(fc.constantFrom(...jwts), fc.constantFrom(0, 1, 2), fc.nat(), fc.constantFrom("flip", "edit", "drop", "swap")).map(([jwt, part, at, how]) => {
    const parts = jwt.split(".");
    if (how === "drop") return parts.filter((_part, index) => index !== part).join(".");
    if (how === "swap") return [parts[1], parts[0], parts[2]].join(".");
    if (how === "edit" && part < 2) {
      try {
        const decoded = JSON.parse(Buffer.from(parts[part], "base64url").toString("utf8")) as Record<string, unknown>;
        const edited = part === 0 ? { ...decoded, alg: "none" } : { ...decoded, exp: 4_102_444_800, project_id: "AAAAAAAAAAAAAAAAAAAAAA" };
        parts[part] = b64json(edited);
        return parts.join(".");
      } catch {
        // fall through to a flipped character
      }
    }
    parts[part] = flipChar(parts[part], at);
    return parts.join(".");
  });
}

/** A credential (what follows `Bearer `): real ones, near misses, prefixed garbage, JWT shapes. */
export function credentialArb(known: string[], jwtish: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const knownValue = fc.constantFrom(...known);
  return fc.oneof(
    { arbitrary: knownValue, weight: 5 },
    { arbitrary: fc.tuple(knownValue, fc.nat()).map(([value, at]) => flipChar(value, at)), weight: 2 },
    { arbitrary: knownValue.chain((value) => fc.mixedCase(fc.constant(value))), weight: 1 },
    { arbitrary: fc.tuple(knownValue, fc.constantFrom("=", "==", "a", ".", "~", "+/", " ")).map(([value, extra]) => value + extra), weight: 1 },
    { arbitrary: knownValue.map((value) => value.slice(0, -1)), weight: 1 },
    { arbitrary: base64urlText(43, 43).map((random) => `ilat_${random}`), weight: 3 },
    { arbitrary: base64urlText(43, 43).map((random) => `ilsec_${random}`), weight: 3 },
    { arbitrary: fc.tuple(fc.constantFrom("ilat_", "ilsec_", "ILAT_", "ilat-", "ilat_ilat_"), headerText(60)).map(([prefix, rest]) => prefix + rest), weight: 2 },
    { arbitrary: jwtish, weight: 4 },
    { arbitrary: base64urlText(0, 120), weight: 1 },
    { arbitrary: headerText(80), weight: 2 },
    { arbitrary: fc.constantFrom("A".repeat(10_000), `ilat_${"A".repeat(10_000)}`, `${"eyJ".repeat(3_000)}.e.e`), weight: 1 },
  );
}

/**
 * The Authorization header, or undefined for none: many schemes, separators and trailing
 * bytes around a credential, and bare garbage. No generated value contains `<`, so that the
 * documented "Bearer <token>" of an error message is never mistaken for an echo.
 */
export function authorizationArb(credential: fc.Arbitrary<string>): fc.Arbitrary<string | undefined> {
  const scheme = fc.constantFrom("Bearer ", "Bearer ", "Bearer ", "bearer ", "BEARER ", "Bearer  ", "Bearer\t", "Bearer", "Bearer:", "Bearer=", "Basic ", "Token ", "Bearer Bearer ", "", "DPoP ", "dpop ", "DPoP");
  const suffix = fc.constantFrom("", "", "", " ", "  ", "=", "==", ",", ", Bearer x", " x", "\t");
  return fc.oneof(
    { withCrossShrink: true },
    { arbitrary: fc.constant(undefined), weight: 2 },
    { arbitrary: fc.tuple(scheme, credential, suffix).map(([s, c, x]) => s + c + x), weight: 10 },
    { arbitrary: fc.tuple(fc.constantFrom("Basic ", "Digest "), fc.uint8Array({ maxLength: 40 })).map(([s, bytes]) => s + Buffer.from(bytes).toString("base64")), weight: 1 },
    { arbitrary: headerText(120).map((text) => text.replace(/</g, "(")), weight: 2 },
    { arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }).map((text) => `Bearer ${asHeaderBytes(text)}`.replace(/</g, "(")), weight: 1 },
  );
}

/**
 * A `DPoP` header (RFC 9449): proofs made for the route (tests/helpers/dpop.ts, hostileProofs: good
 * ones, which their first use spends, and broken ones), tampered copies, two at once, and garbage.
 */
export function dpopHeaderArb(proofs: string[]): fc.Arbitrary<string> {
  const proof = fc.constantFrom(...proofs);
  return fc.oneof(
    { arbitrary: proof, weight: 4 },
    { arbitrary: fc.tuple(proof, fc.nat()).map(([value, at]) => flipChar(value, at)), weight: 2 },
    { arbitrary: proof.map((value) => `${value}, ${value}`), weight: 1 },
    { arbitrary: fc.constantFrom("", "e30.e30.", "a.b.c", `${"eyJ".repeat(3_000)}.e.e`), weight: 1 },
    { arbitrary: headerText(120), weight: 1 },
  );
}

// ---------------------------------------------------------------------------------------------
// Headers
// ---------------------------------------------------------------------------------------------
export type HeaderList = [string, string][];

const PEERS = ["127.0.0.1", "203.0.113.9", "::1", "2001:db8::7", "::ffff:198.51.100.4", "fe80::1"];

/** The headers a hostile client controls (server.mjs sets x-initlink-peer to the TCP peer). */
export function clientHeadersArb(): fc.Arbitrary<HeaderList> {
  const optional = (name: string, value: fc.Arbitrary<string>) => sometimes(value.map((v): [string, string] => [name, v]), 2);
  return fc
    .tuple(
      fc.constantFrom(...PEERS).map((peer): [string, string] => ["x-initlink-peer", peer]),
      optional("user-agent", fc.oneof(fc.constantFrom("acme-cli/1.0", "Mozilla/5.0", ""), headerText(200), fc.constant("U".repeat(5000)))),
      optional("x-forwarded-for", fc.oneof(fc.constantFrom("1.2.3.4", "1.2.3.4, 5.6.7.8", "garbage", "::1", ",,,"), headerText(40))),
      optional("host", fc.oneof(fc.constantFrom("evil.example", "localhost:3000", ""), headerText(30))),
      optional("x-forwarded-host", fc.constantFrom("evil.example", "initlink.test")),
      optional("accept", fc.constantFrom("*/*", "text/html", "application/json", "")),
      optional("cookie", fc.oneof(fc.constantFrom("initlink_session=x", "__Host-initlink_session=", "a=b; c=d"), headerText(60))),
      optional("x-hostile", headerText(60)),
    )
    .map((headers) => headers.filter((header): header is [string, string] => header !== undefined));
}

/** Content-Type values, from the contract (and what fetch() sends) to garbage. */
export function contentTypeArb(): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { withCrossShrink: true },
    {
      arbitrary: fc.constantFrom(
        undefined,
        "application/json",
        "application/json; charset=utf-8",
        "APPLICATION/JSON",
        "application/json;charset=latin1",
        "text/plain",
        "text/plain;charset=UTF-8",
        "application/vnd.api+json",
        "application/merge-patch+json",
        "",
        " ",
      ),
      weight: 12,
    },
    {
      arbitrary: fc.constantFrom(
        "application/json, text/plain",
        "application/json-patch",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=xyz",
        "text/html",
        "application/xml",
        "application/octet-stream",
        "*/*",
        ";",
        "json",
      ),
      weight: 3,
    },
    { arbitrary: headerText(60), weight: 1 },
  );
}

// ---------------------------------------------------------------------------------------------
// Bodies, described (so that a counterexample prints short) and made when sent
// ---------------------------------------------------------------------------------------------
export type BodySpec =
  | { kind: "none" }
  | { kind: "text"; text: string; chunked?: number }
  | { kind: "bytes"; bytes: number[]; chunked?: number }
  | { kind: "huge"; prefix: string; fill: string; bytes: number; suffix: string; chunked?: number };

export function bodyBytes(spec: BodySpec): Uint8Array<ArrayBuffer> | null {
  switch (spec.kind) {
    case "none":
      return null;
    case "text":
      return new Uint8Array(Buffer.from(spec.text, "utf8"));
    case "bytes":
      return new Uint8Array(spec.bytes);
    case "huge": {
      const head = Buffer.from(spec.prefix, "utf8");
      const tail = Buffer.from(spec.suffix, "utf8");
      const fillBytes = Buffer.from(spec.fill, "utf8");
      const middle = Math.max(0, spec.bytes - head.length - tail.length);
      const repeated = Buffer.alloc(middle, fillBytes.length > 0 ? fillBytes : Buffer.from("A"));
      return new Uint8Array(Buffer.concat([head, repeated, tail]));
    }
  }
}

/** A request body: as one buffer, or (`chunked`) as a stream of that many bytes per chunk. */
export function requestBody(spec: BodySpec): BodyInit | null {
  const bytes = bodyBytes(spec);
  if (bytes === null) return null;
  const chunk = spec.kind === "none" ? undefined : spec.chunked;
  if (chunk === undefined) return bytes;
  // Pulled chunk by chunk, like a socket: a reader that stops early never sees the rest.
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) {
        controller.close();
        return;
      }
      controller.enqueue(bytes.slice(offset, offset + chunk));
      offset += chunk;
    },
  });
}

export function describeBody(spec: BodySpec): string {
  switch (spec.kind) {
    case "none":
      return "(no body)";
    case "text":
      return `text ${JSON.stringify(preview(spec.text))}${spec.chunked ? ` in ${spec.chunked}-byte chunks` : ""}`;
    case "bytes":
      return `bytes [${spec.bytes.slice(0, 40).join(",")}${spec.bytes.length > 40 ? ",…" : ""}] (${spec.bytes.length})${spec.chunked ? ` in ${spec.chunked}-byte chunks` : ""}`;
    case "huge":
      return `${spec.bytes} bytes: ${JSON.stringify(spec.prefix)} + ${JSON.stringify(spec.fill)}… + ${JSON.stringify(spec.suffix)}${spec.chunked ? ` in ${spec.chunked}-byte chunks` : ""}`;
  }
}

export const INVALID_UTF8 = [[0xff], [0xc3, 0x28], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0x80], [0xfe, 0xff]];

/** Bodies for a JSON API route; `shaped` makes objects close to what the route expects. */
export function jsonBodyArb(shaped: fc.Arbitrary<unknown>): fc.Arbitrary<BodySpec> {
  const chunked = sometimes(fc.constantFrom(1, 7, 1024, 4096));
  const text = (arb: fc.Arbitrary<string>) => fc.tuple(arb, chunked).map(([t, c]): BodySpec => ({ kind: "text", text: t, chunked: c }));
  const invalidUtf8 = fc
    .tuple(fc.constantFrom('{"sender":"', '"', "", '{"sender":"ok","sender_device":"'), fc.constantFrom(...INVALID_UTF8), fc.constantFrom('"}', '"', ""))
    .map(([head, bad, tail]): BodySpec => ({ kind: "bytes", bytes: [...Buffer.from(head), ...bad, ...Buffer.from(tail)] }));
  const huge = fc
    .tuple(
      fc.constantFrom(16_383, 16_384, 16_385, 16_500, 100_000, 1_000_000),
      fc.constantFrom(['{"sender":"', "a", '"}'] as const, ['{"sender":"x","pad":"', "é", '"}'] as const, ["[", "0,", "0]"] as const, ["", " ", "{}"] as const, ['"', "\\u0000", '"'] as const),
      chunked,
    )
    .map(([bytes, [prefix, fill, suffix], c]): BodySpec => ({ kind: "huge", prefix, fill, bytes, suffix, chunked: c }));
  return fc.oneof(
    { withCrossShrink: true },
    { arbitrary: fc.constant<BodySpec>({ kind: "none" }), weight: 1 },
    { arbitrary: text(fc.constantFrom("", " ", "null", "[]", "{}", "0", '"x"', "{", "}", '{"sender":', "NaN", "1e999", "\ufeff{}", '{"sender":"a"}\u0000', '{"__proto__":{"sender":"x"}}', "[".repeat(5000) + "]".repeat(5000))), weight: 2 },
    { arbitrary: text(shaped.map((value) => JSON.stringify(value) ?? "null")), weight: 6 },
    { arbitrary: text(shaped.map((value) => `\ufeff${JSON.stringify(value)}`)), weight: 1 },
    { arbitrary: text(fc.jsonValue().map((value) => JSON.stringify(value) ?? "null")), weight: 2 },
    { arbitrary: text(fc.jsonValue({ stringUnit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)) }).map((value) => JSON.stringify(value) ?? "null")), weight: 1 },
    { arbitrary: text(fc.string({ unit: "binary", maxLength: 200 })), weight: 2 },
    { arbitrary: invalidUtf8, weight: 2 },
    { arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes): BodySpec => ({ kind: "bytes", bytes: [...bytes] })), weight: 1 },
    { arbitrary: huge, weight: 2 },
  );
}

/** Bodies for an HTML form route: fields URL-encoded, or anything else. */
export function formBodyArb(fields: fc.Arbitrary<Record<string, string>>, limitBytes: number): fc.Arbitrary<BodySpec> {
  return fc.oneof(
    { arbitrary: fields.map((f): BodySpec => ({ kind: "text", text: new URLSearchParams(f).toString() })), weight: 8 },
    { arbitrary: fc.constant<BodySpec>({ kind: "none" }), weight: 1 },
    { arbitrary: fc.constantFrom("", "&&&", "=", "name", "name=%zz&scope=%", "name=%ff%fe&scope=all&lifetime=30", "name=a&name=b&scope=all&lifetime=30").map((t): BodySpec => ({ kind: "text", text: t })), weight: 2 },
    { arbitrary: fc.string({ unit: "binary", maxLength: 200 }).map((t): BodySpec => ({ kind: "text", text: t })), weight: 1 },
    { arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes): BodySpec => ({ kind: "bytes", bytes: [...bytes] })), weight: 1 },
    {
      arbitrary: fc
        .tuple(fc.constantFrom(limitBytes - 1, limitBytes, limitBytes + 1, 100_000), sometimes(fc.constantFrom(1, 1024), 1))
        .map(([bytes, chunked]): BodySpec => ({ kind: "huge", prefix: "scope=all&lifetime=30&name=", fill: "a", bytes, suffix: "", chunked })),
      weight: 1,
    },
  );
}

/** A Content-Length that may lie about the body. */
export const declaredLengthArb = () => sometimes(fc.constantFrom("0", "1", "16384", "16385", "99999999", "-1", "abc", "1e6", " 5"), 5);

/** A query string: none, harmless, a token in the query, or garbage. */
export const queryArb = () =>
  fc.oneof(
    { withCrossShrink: true },
    { arbitrary: fc.constant(""), weight: 6 },
    { arbitrary: fc.constantFrom("?", "?a=1", "?access_token=ilat_AAAA", "?id=..%2F..", "?%00", "?a=%zz", `?${"x".repeat(5000)}`), weight: 2 },
    { arbitrary: fc.string({ unit: "binary", maxLength: 30 }).map((text) => `?q=${encodeSegment(text)}`), weight: 1 },
  );

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

/** encodeURIComponent, with lone surrogates (which it refuses) written as U+FFFD. */
export function encodeSegment(segment: string): string {
  return encodeURIComponent(segment.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd"));
}

export function buildRequest(method: string, url: string, headers: HeaderList, body: BodyInit | null = null): Request {
  const list = new Headers();
  for (const [name, value] of headers) list.append(name, value);
  return new Request(url, { method, headers: list, body, duplex: "half" } as RequestInit);
}

export function describeHeaders(headers: HeaderList): string {
  return headers.map(([name, value]) => `${name}: ${JSON.stringify(preview(value))}`).join("; ");
}

export function preview(text: string, max = 160): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} chars)`;
}
