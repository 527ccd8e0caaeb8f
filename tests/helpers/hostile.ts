import { createHash } from "node:crypto";
import fc from "fast-check";
import { afterAll, expect } from "vitest";
import { FORM_FLASH_COOKIE } from "@/lib/auth/form-flash";
import { sessionCookieName } from "@/lib/auth/session-cookie";
import { config } from "@/lib/config";
import { directSql } from "@/lib/direct-sql";
import type { ErrorCode } from "@/lib/errors";
import { formErrorMessage } from "@/lib/http/messages";
import { pollClocks, rateLimitCounters } from "./api";

// The hostile-input suite's shared part (issue 5, "Hostile input"): generators for bodies,
// headers and path segments, the documented answers of every route, a fingerprint of the whole
// database, and the runner that checks each answer. The properties live in
// tests/api/hostile-*.test.ts, so that they run on SQLite and on PostgreSQL like the rest of
// tests/api.

/** Fixed, so that a failure is reproducible; change it only on purpose. */
export const SEED = 20261122;
/** Generated requests per route (issue 5 asks for at least 1,000 per endpoint). */
export const NUM_RUNS = 1000;
/** Per property: 1,000 requests and 1,000 database fingerprints, plus shrinking on a failure. */
export const PROPERTY_TIMEOUT_MS = 300_000;

// ---------------------------------------------------------------------------------------------
// What each route may answer, from docs/api.md (the error table and each route's section). A
// status missing here is undocumented; a code must be one the error table gives that status.
// No 5xx anywhere (500 internal_error is a bug): GET /api/health's documented 503 needs a
// database that does not answer, and the database answers in these tests. The suite runs with
// vitest.config.ts's high limits, so 429 rate_limited is allowed where documented but not expected.
// ---------------------------------------------------------------------------------------------
export const DOCUMENTED = {
  // Create Init: 201; invalid field / not JSON; over 16 KiB; not JSON's type; CREATE_INIT_PER_MINUTE.
  "POST /api/init": { 201: [], 400: ["invalid_request", "invalid_json"], 413: ["payload_too_large"], 415: ["unsupported_media_type"], 429: ["rate_limited"] },
  // Init status: 200; wrong secret; unknown or malformed id; polled faster than the interval, or
  // token pickups past PICKUPS_PER_INIT_PER_MINUTE.
  "GET /api/init/{id}": { 200: [], 401: ["invalid_secret"], 404: ["not_found"], 429: ["slow_down", "rate_limited"] },
  // Create Project Link: 200; bad iv; missing/malformed/unknown/expired/revoked token; project
  // not there or not reached; (project, iv) of another token or revoked; body over 16 KiB;
  // LINKS_PER_TOKEN_PER_MINUTE.
  "POST /api/projects/{projectId}/link/{iv}": {
    200: [],
    400: ["invalid_request"],
    401: ["unauthorized", "invalid_token"],
    404: ["not_found"],
    409: ["link_conflict", "link_revoked"],
    413: ["payload_too_large"],
    429: ["rate_limited"],
  },
  // The link bearer's project: 200; no bearer, or one that is malformed, expired, forged,
  // revoked or for another project ("gets 401 invalid_token").
  "GET /api/projects/{projectId}": { 200: [], 401: ["unauthorized", "invalid_token"] },
  "GET /.well-known/jwks.json": { 200: [] },
  "GET /api/health": { 200: [] },
  "GET /api/live": { 200: [] },
  // The settings page's new-token form (answers JSON): 201; invalid field; signed out; not from
  // this site's page; a project that is not the person's; body over the form limit; not a form.
  "POST /settings/tokens/create": {
    201: [],
    400: ["invalid_request", "duplicate_session_cookie"],
    401: ["unauthorized"],
    403: ["cross_site_request"],
    404: ["not_found"],
    413: ["payload_too_large"],
    415: ["unsupported_media_type"],
  },
} as const satisfies Record<string, Record<number, readonly string[]>>;

export type RouteName = keyof typeof DOCUMENTED;

// ---------------------------------------------------------------------------------------------
// Database fingerprint: row count and SHA-256 of every row of every table, in key order.
// ---------------------------------------------------------------------------------------------
function digest(rows: unknown[]): string {
  const json = JSON.stringify(rows, (_key, value: unknown) => (typeof value === "bigint" ? `${value}n` : value));
  return `${rows.length} rows, sha256 ${createHash("sha256").update(json).digest("base64url").slice(0, 22)}`;
}

export type Fingerprint = Record<string, string>;

// Each table in full (SELECT *), read through the database driver (lib/direct-sql.ts) rather than
// Prisma's query layer: two fingerprints around each of 2,000 requests read every row of tables
// that grow to thousands of rows, and Prisma's per-row cost made that most of a suite's time.
const FINGERPRINTED = [
  ["Init", "id"],
  ["User", "id"],
  ["Session", "id"],
  ["Project", "id"],
  ["ProjectKey", "projectId"],
  ["ProjectLink", "id"],
  ["AccessToken", "id"],
  ["SigningKey", "kid"],
  ["LinkApproval", "id"],
  ["ProjectAlias", "id"],
] as const;

export async function databaseFingerprint(): Promise<Fingerprint> {
  const sql = await directSql();
  const [initPollClock, rateLimit, ...tables] = await Promise.all([
    pollClocks(),
    rateLimitCounters(),
    ...FINGERPRINTED.map(([table, key]) => sql.all(`SELECT * FROM "${table}" ORDER BY "${key}"`, [])),
  ]);
  const fingerprint: Fingerprint = { InitPollClock: digest(initPollClock), RateLimit: digest(rateLimit) };
  FINGERPRINTED.forEach(([table], at) => (fingerprint[table] = digest(tables[at])));
  return fingerprint;
}

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
  const scheme = fc.constantFrom("Bearer ", "Bearer ", "Bearer ", "bearer ", "BEARER ", "Bearer  ", "Bearer\t", "Bearer", "Bearer:", "Bearer=", "Basic ", "Token ", "Bearer Bearer ", "");
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

const INVALID_UTF8 = [[0xff], [0xc3, 0x28], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0x80], [0xfe, 0xff]];

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

// ---------------------------------------------------------------------------------------------
// The properties
// ---------------------------------------------------------------------------------------------
export type Sent = {
  request: Request;
  response: Response;
  /** A human description of the request, for the failure message. */
  description: string;
  /** Values that must never come back in an error answer, besides Authorization. */
  secrets?: string[];
};

type Generated<P> = {
  method: "GET" | "POST";
  /** The URL's path, segments encoded as sent. */
  path: string;
  query?: string;
  /** As Next hands them to the handler. */
  params: P;
  /** The client's generated headers; `extra` adds each of its headers that is set, in order. */
  headers: HeaderList;
  extra?: Record<string, string | undefined>;
  body?: BodySpec;
  /** The request, as a failure names it (its path by default). */
  shown?: string;
  secrets?: string[];
};

/** Sends a generated request to its route handler, as server.mjs would hand it over. */
export async function sendToRoute<P>(route: (request: Request, context: { params: Promise<P> }) => Response | Promise<Response>, generated: Generated<P>): Promise<Sent> {
  const { method, path, query = "", params, headers, extra = {}, body, shown = path, secrets } = generated;
  const list: HeaderList = [...headers];
  for (const [name, value] of Object.entries(extra)) if (value !== undefined) list.push([name, value]);
  const request = buildRequest(method, `http://localhost:3000${path}${query}`, list, body === undefined ? null : requestBody(body));
  const response = await route(request, { params: Promise.resolve(params) });
  const description = `${method} ${shown}${preview(query, 120)}; ${describeHeaders(list)}${body === undefined ? "" : `; body ${describeBody(body)}`}`;
  return { request, response, description, secrets };
}

// Placeholders the error messages document ("Send … as Authorization: Bearer <token>").
const PLACEHOLDERS = /Bearer <(token|JWT|secret)>/g;

function echoes(body: string, secret: string): boolean {
  const text = body.replace(PLACEHOLDERS, "");
  return text.includes(secret) || text.includes(JSON.stringify(secret).slice(1, -1));
}

const histograms = new Map<RouteName, Map<string, number>>();

afterAll(() => {
  for (const [route, histogram] of histograms) {
    const total = [...histogram.values()].reduce((sum, count) => sum + count, 0);
    const answers = [...histogram.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([answer, count]) => `${answer}×${count}`)
      .join(" ");
    console.log(`hostile ${route}: ${total} requests (seed ${SEED}, ${NUM_RUNS} runs + shrinking): ${answers}`);
  }
});

/**
 * Checks one answer: never a 5xx; JSON; a documented status (and, for an error, a documented
 * code, a string `error`, a Bearer challenge on a bearer route's 401, Retry-After on 429); an error writes
 * nothing; an error never echoes the Authorization value (or another secret of the request).
 */
export async function checkAnswer(route: RouteName, sent: Sent, before: Fingerprint, after: Fingerprint): Promise<void> {
  const { response, request } = sent;
  const text = await response.text();
  let body: unknown;
  let parsed = true;
  try {
    body = JSON.parse(text);
  } catch {
    parsed = false;
  }
  const record = (body ?? {}) as Record<string, unknown>;
  const code = typeof record.code === "string" ? record.code : "";
  const histogram = histograms.get(route) ?? new Map<string, number>();
  histograms.set(route, histogram);
  const key = code ? `${response.status} ${code}` : String(response.status);
  histogram.set(key, (histogram.get(key) ?? 0) + 1);

  const observed = `${route}\n  request: ${sent.description}\n  answer: ${response.status} ${preview(text, 400)}`;
  expect(response.status, `5xx\n${observed}`).toBeLessThan(500);
  expect(parsed, `not JSON\n${observed}`).toBe(true);
  expect(response.headers.get("content-type") ?? "", `Content-Type not JSON\n${observed}`).toMatch(/^application\/json/);
  const documented = DOCUMENTED[route] as Record<number, readonly string[]>;
  expect(Object.keys(documented).map(Number), `undocumented status\n${observed}`).toContain(response.status);
  if (response.status < 400) return;

  expect(typeof body === "object" && body !== null && !Array.isArray(body), `error not a JSON object\n${observed}`).toBe(true);
  expect(typeof record.error === "string" && record.error.length > 0, `error without a string "error"\n${observed}`).toBe(true);
  expect(typeof record.code, `error without a string "code"\n${observed}`).toBe("string");
  expect(documented[response.status], `code not documented for ${response.status}\n${observed}`).toContain(code);
  // A route that takes a bearer names the Bearer scheme on its 401 (RFC 6750 §3); the session cookie's route names none.
  const challenge = response.headers.get("www-authenticate");
  if (response.status === 401 && route === "POST /settings/tokens/create") expect(challenge, `Bearer challenge on a cookie route\n${observed}`).toBeNull();
  else if (response.status === 401) expect(challenge ?? "", `401 without WWW-Authenticate\n${observed}`).toMatch(/^Bearer\b/);
  if (response.status === 429) expect(response.headers.get("retry-after") ?? "", `429 without Retry-After\n${observed}`).toMatch(/^[1-9][0-9]*$/);

  const authorization = request.headers.get("authorization");
  const secrets = [...(authorization !== null ? [authorization] : []), ...(sent.secrets ?? [])].filter((secret) => secret.length >= 8);
  for (const secret of secrets) expect(echoes(text, secret), `secret echoed: ${JSON.stringify(preview(secret))}\n${observed}`).toBe(false);

  const changed = Object.keys(before).filter((table) => before[table] !== after[table]);
  expect(after, `a rejected request changed the database (${changed.join(", ")})\n${observed}`).toEqual(before);
}

/**
 * Runs `send` on NUM_RUNS generated inputs with the fixed seed and checks every answer; the
 * first failure is shrunk to a minimal counterexample. With HOSTILE_EXPLORE=1 it instead runs
 * all NUM_RUNS, keeps going past failures, and fails at the end with one example of each kind
 * of failure (to list every bug at once rather than the first).
 * The fingerprint after one request is the one before the next (nothing else writes between
 * them), so each request costs one fingerprint. Returns how many answers had each status (for
 * expectSuccesses).
 */
export async function assertHostile<T>(route: RouteName, arbitrary: fc.Arbitrary<T>, send: (input: T) => Promise<Sent>): Promise<Map<number, number>> {
  const explore = process.env.HOSTILE_EXPLORE === "1";
  const failures = new Map<string, { count: number; example: string }>();
  const statuses = new Map<number, number>();
  let last: Fingerprint | null = null;
  await fc.assert(
    fc.asyncProperty(arbitrary, async (input) => {
      const before = last ?? (await databaseFingerprint());
      last = null;
      const sent = await send(input);
      const after = await databaseFingerprint();
      last = after;
      statuses.set(sent.response.status, (statuses.get(sent.response.status) ?? 0) + 1);
      try {
        await checkAnswer(route, sent, before, after);
      } catch (error) {
        if (!explore) throw error;
        const message = error instanceof Error ? error.message : String(error);
        const kind = `${message.split("\n")[0]}: ${sent.response.status}`;
        const seen = failures.get(kind);
        failures.set(kind, { count: (seen?.count ?? 0) + 1, example: seen?.example ?? message });
      }
    }),
    { seed: SEED, numRuns: NUM_RUNS },
  );
  if (failures.size > 0) {
    const report = [...failures.entries()].map(([kind, { count, example }]) => `${kind} (${count}×), e.g.\n${example}`).join("\n\n");
    throw new Error(`${route}: ${failures.size} kinds of failure in ${NUM_RUNS} runs\n\n${report}`);
  }
  return statuses;
}

/**
 * Issue 14: a property must also see successes, not only refusals, so that a route that refuses
 * everything fails it. Logs how many of the NUM_RUNS requests succeeded (`what`), and asserts at
 * least `minimum` (each property's constant, well under the fixed seed's count).
 */
export function expectSuccesses(route: string, what: string, successes: number, minimum: number): void {
  console.log(`hostile ${route}: ${successes} of ${NUM_RUNS} requests succeeded (${what}; at least ${minimum} required)`);
  expect(successes, `${route}: too few successes (${what}): a route that refuses everything must fail`).toBeGreaterThanOrEqual(minimum);
}

// =============================================================================================
// HTML forms (issue 5, "Hostile input", second bullet): the same properties through the form
// routes, which lib/http/form-route.ts wraps so that every answer is a 303: a failure back to the
// form's page with `?error=<code>`, a success on to the next page. The properties live in
// tests/api/hostile-forms-*.test.ts.
// =============================================================================================

/**
 * The codes each form may send back in `?error=`: the documented ones (docs/api.md's error table;
 * docs/configuration.md's limits, "?error=rate_limited on a form"; docs/security.md's same-site check) for what the
 * form does, each one a code the page has its own message for (lib/http/messages.ts's MESSAGES,
 * checked through formErrorMessage by assertHostileForm). `internal_error` is never allowed.
 *
 * `countedRefusals`: the documented exception to "a refused request writes nothing". docs/configuration.md:
 * "Refused sign-ins and sign-ups are the one kind of refused request that
 * writes (their counters: each attempt costs a password hash)" and "Only requests that passed
 * validation count". So a sign-in or sign-up refused after validation (wrong password, email
 * taken, over a limit) may change the RateLimit table, and only it; one refused before (not
 * this site, not a form, too large, invalid fields) writes nothing at all, like every other form.
 */
export const FORM_DOCUMENTED = {
  // Sign-up: not from this site; not a form; over the form limit; invalid email or password;
  // SIGN_IN_PER_ADDRESS_PER_MINUTE; email already registered.
  "POST /auth/signup": {
    codes: ["cross_site_request", "unsupported_media_type", "payload_too_large", "invalid_request", "rate_limited", "email_taken"],
    countedRefusals: ["email_taken", "rate_limited"],
  },
  // Sign-in: as sign-up, with unknown email or wrong password instead of email taken; the
  // per-address and per-account-and-address limits are both rate_limited.
  "POST /auth/signin": {
    codes: ["cross_site_request", "unsupported_media_type", "payload_too_large", "invalid_request", "rate_limited", "invalid_credentials"],
    countedRefusals: ["invalid_credentials", "rate_limited"],
  },
  // Sign-out reads no body and needs no session (signing out twice is harmless): only the
  // same-site check and two session cookies (issue 14: neither is trusted) can refuse it.
  "POST /auth/signout": { codes: ["cross_site_request", "duplicate_session_cookie"], countedRefusals: [] },
  // Every signed-in form: two session cookies (issue 14). Approve: not from this site; signed out; not a form; too large; invalid fields (project,
  // new project name); unknown or malformed init or project; init done, denied or expired; code
  // not confirmed (or, with INIT_CODE_CHECK=enter, mistyped; rate_limited while the last
  // allowed codes are being compared by concurrent requests).
  // A new project's RSA key is written to ProjectKey in the background after its approval, so
  // whenever it is done: during a later request, which must not be blamed for it.
  "POST /init/{id}/approve": {
    codes: ["cross_site_request", "unauthorized", "duplicate_session_cookie", "unsupported_media_type", "payload_too_large", "invalid_request", "not_found", "init_not_pending", "code_mismatch", "rate_limited"],
    countedRefusals: [],
    backgroundTables: ["ProjectKey"],
  },
  "POST /init/{id}/deny": {
    codes: ["cross_site_request", "unauthorized", "duplicate_session_cookie", "unsupported_media_type", "payload_too_large", "not_found", "init_not_pending"],
    countedRefusals: [],
  },
  // The Revoke buttons: not from this site; signed out; not a form; too large; no such token,
  // or link of this project, of the person's.
  "POST /settings/tokens/{id}/revoke": {
    codes: ["cross_site_request", "unauthorized", "duplicate_session_cookie", "unsupported_media_type", "payload_too_large", "not_found"],
    countedRefusals: [],
  },
  "POST /projects/{id}/links/{linkId}/revoke": {
    codes: ["cross_site_request", "unauthorized", "duplicate_session_cookie", "unsupported_media_type", "payload_too_large", "not_found"],
    countedRefusals: [],
  },
} as const satisfies Record<string, { codes: readonly ErrorCode[]; countedRefusals: readonly ErrorCode[]; backgroundTables?: readonly string[] }>;

export type FormRouteName = keyof typeof FORM_DOCUMENTED;

/** The forms whose success starts a session: there the Set-Cookie, not `error=` in Location, tells success from failure. */
const SESSION_FORMS: readonly FormRouteName[] = ["POST /auth/signup", "POST /auth/signin"];

/** The tables whose fingerprints differ, leaving out `ignored`. */
export function changedTables(before: Fingerprint, after: Fingerprint, ignored: readonly string[] = []): string[] {
  return Object.keys({ ...before, ...after }).filter((table) => !ignored.includes(table) && before[table] !== after[table]);
}

// ---------------------------------------------------------------------------------------------
// Form generators
// ---------------------------------------------------------------------------------------------
export type FormField = [name: string, value: string];

/**
 * Form fields as name/value pairs: each field's value (undefined leaves the field out), and
 * now and then the same field (or an unknown one) once more, before or after, with a hostile
 * value. Every form keeps a repeated field's first value (lib/http/body.ts): a repeat before
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

// ---------------------------------------------------------------------------------------------
// The form properties
// ---------------------------------------------------------------------------------------------
export type FormSent = {
  request: Request;
  response: Response;
  /** A human description of the request, for the failure message. */
  description: string;
  /** Passwords and session tokens the request carried: none may come back in Location. */
  secrets: string[];
};

const safeDecode = (text: string) => {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
};

/** A URL as it can be read: raw, decoded, and its query values. */
function readings(url: string): string[] {
  const values: string[] = [url, safeDecode(url)];
  try {
    const parsed = new URL(url);
    values.push(safeDecode(parsed.pathname), ...parsed.searchParams.values());
  } catch {
    // not a URL: the raw and decoded text only
  }
  return values;
}

/**
 * Checks one form answer and returns its summary ("ok" or "error=<code>"): never a 5xx; a 303
 * whose Location is an absolute URL on APP_URL's origin; a failure carries exactly one `error`,
 * a code documented for the form (never internal_error) that the page has a message for, sets
 * no cookie, and writes nothing (but the documented counters); no password or session token of
 * the request appears in Location unless the request's own URL carried it.
 */
export async function checkFormAnswer(route: FormRouteName, sent: FormSent, before: Fingerprint, after: Fingerprint): Promise<string> {
  const { response, request } = sent;
  const appOrigin = new URL(config().appUrl).origin;
  const location = response.headers.get("location");
  const setCookie = response.headers.get("set-cookie");
  const text = await response.text();
  const observed = `${route}\n  request: ${sent.description}\n  answer: ${response.status} Location: ${JSON.stringify(location)}${setCookie !== null ? " (sets a cookie)" : ""}${text ? ` ${preview(text, 200)}` : ""}`;

  expect(response.status, `5xx\n${observed}`).toBeLessThan(500);
  expect(response.status, `not a 303\n${observed}`).toBe(303);
  expect(location, `303 without Location\n${observed}`).not.toBeNull();
  let target: URL | null = null;
  try {
    target = new URL(location ?? "");
  } catch {
    // reported below
  }
  expect(target, `Location is not an absolute URL\n${observed}`).not.toBeNull();
  if (target === null || location === null) return "no location";
  expect(target.origin, `Location off APP_URL's origin\n${observed}`).toBe(appOrigin);
  expect(location.startsWith(`${appOrigin}/`), `Location does not start with APP_URL\n${observed}`).toBe(true);

  const errors = target.searchParams.getAll("error");
  const sessionCookie = new RegExp(`^${sessionCookieName(config())}=[^;]+`);
  const failed = SESSION_FORMS.includes(route) ? !(setCookie !== null && sessionCookie.test(setCookie)) : errors.length > 0;

  const requestReadings = readings(request.url);
  for (const secret of sent.secrets.filter((value) => value.length >= 8)) {
    if (requestReadings.some((reading) => reading.includes(secret))) continue;
    const leaked = readings(location).some((reading) => reading.includes(secret));
    expect(leaked, `Location carries a secret of the request: ${JSON.stringify(preview(secret))}\n${observed}`).toBe(false);
  }
  if (!failed) return "ok";

  expect(errors.length, `a failure without exactly one error=\n${observed}`).toBe(1);
  const code = errors[0];
  expect(code, `internal_error\n${observed}`).not.toBe("internal_error");
  const documented = FORM_DOCUMENTED[route];
  expect(documented.codes as readonly string[], `code not documented for this form\n${observed}`).toContain(code);
  // The one cookie a refusal may set: a refused sign-in or sign-up keeps its email for the form's
  // page (lib/auth/form-flash.ts), and never a secret of the request.
  if (setCookie !== null && SESSION_FORMS.includes(route) && setCookie.startsWith(`${FORM_FLASH_COOKIE}=`)) {
    const kept = decodeURIComponent(setCookie.slice(FORM_FLASH_COOKIE.length + 1).split(";")[0]);
    for (const secret of sent.secrets.filter((value) => value.length >= 8)) {
      expect(kept.includes(secret), `the kept form carries a secret of the request: ${JSON.stringify(preview(secret))}\n${observed}`).toBe(false);
    }
  } else {
    expect(setCookie, `a refusal sets a cookie\n${observed}`).toBeNull();
  }
  // The one documented write of a refusal: a sign-in or sign-up refused after validation counts
  // against its address (and account); see FORM_DOCUMENTED.
  const background: readonly string[] = "backgroundTables" in documented ? documented.backgroundTables : [];
  const ignored = [...background, ...((documented.countedRefusals as readonly string[]).includes(code) ? ["RateLimit"] : [])];
  const changed = changedTables(before, after, ignored);
  expect(changed, `a refused request (${code}) changed the database (${changed.join(", ")})\n${observed}`).toEqual([]);
  return `error=${code}`;
}

/**
 * Runs `send` on NUM_RUNS generated inputs with the fixed seed and checks every answer with
 * checkFormAnswer; the first failure is shrunk to a minimal counterexample (HOSTILE_EXPLORE=1:
 * all runs, one example of each kind of failure, as assertHostile). `prepare` makes what one
 * input needs (a fresh pending init, a fresh session) before the fingerprint is taken; without
 * it the fingerprint after one request is the one before the next. Prints the answers and the
 * wall time, and returns the answers' counts.
 */
export async function assertHostileForm<T, C = undefined>(
  route: FormRouteName,
  arbitrary: fc.Arbitrary<T>,
  send: (input: T, prepared: C) => Promise<FormSent>,
  prepare?: (input: T) => Promise<C>,
): Promise<Map<string, number>> {
  // Every code the table allows must have its own message on the page (MESSAGES), not the generic one.
  const generic = formErrorMessage("internal_error");
  for (const code of FORM_DOCUMENTED[route].codes) expect(formErrorMessage(code), `${route}: ${code} has no message of its own in lib/http/messages.ts`).not.toBe(generic);

  const explore = process.env.HOSTILE_EXPLORE === "1";
  const failures = new Map<string, { count: number; example: string }>();
  const answers = new Map<string, number>();
  const started = performance.now();
  let last: Fingerprint | null = null;
  try {
    await fc.assert(
      fc.asyncProperty(arbitrary, async (input) => {
        const prepared = prepare ? await prepare(input) : (undefined as C);
        const before = (prepare ? null : last) ?? (await databaseFingerprint());
        last = null;
        const sent = await send(input, prepared);
        const after = await databaseFingerprint();
        last = after;
        try {
          const answer = await checkFormAnswer(route, sent, before, after);
          answers.set(answer, (answers.get(answer) ?? 0) + 1);
        } catch (error) {
          answers.set("failed", (answers.get("failed") ?? 0) + 1);
          if (!explore) throw error;
          const message = error instanceof Error ? error.message : String(error);
          const kind = message.split("\n")[0];
          const seen = failures.get(kind);
          failures.set(kind, { count: (seen?.count ?? 0) + 1, example: seen?.example ?? message });
        }
      }),
      { seed: SEED, numRuns: NUM_RUNS },
    );
  } finally {
    const total = [...answers.values()].reduce((sum, count) => sum + count, 0);
    const summary = [...answers.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([answer, count]) => `${answer}×${count}`)
      .join(" ");
    console.log(`hostile form ${route}: ${total} requests (seed ${SEED}, ${NUM_RUNS} runs + shrinking) in ${((performance.now() - started) / 1000).toFixed(1)} s: 303 ${summary}`);
  }
  if (failures.size > 0) {
    const report = [...failures.entries()].map(([kind, { count, example }]) => `${kind} (${count}×), e.g.\n${example}`).join("\n\n");
    throw new Error(`${route}: ${failures.size} kinds of failure in ${NUM_RUNS} runs\n\n${report}`);
  }
  return answers;
}
