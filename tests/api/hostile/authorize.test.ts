import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GET as authorizeRoute } from "@/app/oauth/authorize/route";
import { changedTables, clientHeadersArb, databaseFingerprint, hostileTextArb, HOSTILE_ATOMS, NUM_RUNS, PROPERTY_TIMEOUT_MS, SEED, sendToRoute, sometimes } from "../../helpers/hostile";
import { pkcePair, REDIRECT_URI } from "../../helpers/oauth";

// Hostile input, property-based: generated authorization requests (RFC 6749 §4.1.1) thrown at
// GET /oauth/authorize. Every answer is a 303 and one of three: the init page of a request it
// made (an Init and its AuthorizationRequest written, nothing else), this site's refused page
// (invalid_client or invalid_redirect_uri, never the client's address: RFC 6749 §4.1.2.1), or the
// request's own loopback redirect URI with an RFC 6749 §4.1.2.1 error and our iss; a refusal
// writes nothing.

const APP_URL = "https://initlink.test";
const CLIENT_ERRORS = ["invalid_request", "unsupported_response_type", "temporarily_unavailable"];

const textValue = fc.oneof(
  { arbitrary: fc.string({ maxLength: 40 }), weight: 3 },
  { arbitrary: fc.constantFrom(...HOSTILE_ATOMS).map(String), weight: 2 },
  { arbitrary: hostileTextArb(), weight: 2 },
);

/** Each parameter: mostly a valid value, sometimes another or hostile text, sometimes absent or sent twice. */
function parameter(name: string, valid: fc.Arbitrary<string>, others: fc.Arbitrary<string>[] = []): fc.Arbitrary<[string, string][]> {
  const value = fc.oneof({ arbitrary: valid, weight: 10 }, ...others.map((arbitrary) => ({ arbitrary, weight: 2 })), { arbitrary: textValue, weight: 1 });
  return fc.oneof(
    { arbitrary: value.map((one): [string, string][] => [[name, one]]), weight: 14 },
    { arbitrary: fc.constant<[string, string][]>([]), weight: 1 },
    { arbitrary: fc.tuple(value, value).map(([one, two]): [string, string][] => [[name, one], [name, two]]), weight: 1 },
  );
}

const { challenge } = pkcePair();

const queryArb = fc
  .tuple(
    parameter("response_type", fc.constant("code"), [fc.constantFrom("token", "code id_token", "CODE")]),
    parameter("client_id", fc.constant("@acme/cli"), [fc.constantFrom(" @acme/cli", "c".repeat(201), "x\u200by")]),
    parameter("redirect_uri", fc.constantFrom(REDIRECT_URI, "http://[::1]:8080/cb"), [
      fc.constantFrom("https://evil.example/cb", "http://localhost.evil.example:1/cb", "http://127.0.0.1:1/cb#f", "http://127.0.0.1:1/cb?code=x", "http://127.0.0.1:99999/cb", "//127.0.0.1/cb"),
    ]),
    parameter("code_challenge", fc.constant(challenge), [fc.constantFrom("a".repeat(42), "a".repeat(44), `${"a".repeat(42)}=`)]),
    parameter("code_challenge_method", fc.constant("S256"), [fc.constantFrom("plain", "s256", "S512")]),
    sometimes(parameter("state", fc.constantFrom("xyz", "s".repeat(1000)), [fc.constantFrom("s".repeat(1001), "a\u0000b", "é")]), 1),
    sometimes(parameter("dpop_jkt", fc.constant(challenge), [fc.constant("short")])),
    sometimes(parameter("scope", fc.constantFrom("openid", "projects"))),
  )
  .map((parts) => {
    const query = new URLSearchParams();
    for (const pairs of parts) for (const [name, value] of pairs ?? []) query.append(name, value);
    return query;
  });

describe("hostile input: the authorization endpoint", () => {
  it(
    `GET /oauth/authorize answers ${NUM_RUNS} generated requests (seed ${SEED}) with its init page, our refused page or the client's own redirect URI, and a refusal writes nothing`,
    async () => {
      const answers = new Map<string, number>();
      let before = await databaseFingerprint();
      await fc.assert(
        fc.asyncProperty(queryArb, clientHeadersArb(), async (query, headers) => {
          const { response, description } = await sendToRoute(authorizeRoute, { method: "GET", path: "/oauth/authorize", query: `?${query}`, params: {}, headers });
          const after = await databaseFingerprint();
          const observed = `${description}\n  answer: ${response.status} ${response.headers.get("location")}`;
          expect(response.status, observed).toBe(303);
          const location = new URL(response.headers.get("location") ?? "", "http://no-location.invalid");
          const redirectUris = query.getAll("redirect_uri");
          let kind: string;
          if (location.origin === APP_URL && /^\/init\/[A-Za-z0-9_-]{22}$/.test(location.pathname)) {
            kind = "init page";
            expect(changedTables(before, after).sort(), observed).toEqual(["AuthorizationRequest", "Init", "RateLimit"]);
          } else if (location.origin === APP_URL && location.pathname === "/oauth/refused") {
            kind = `refused ${location.searchParams.get("error")}`;
            expect(["invalid_client", "invalid_redirect_uri"], observed).toContain(location.searchParams.get("error"));
            expect(changedTables(before, after), observed).toEqual([]);
          } else {
            kind = `client ${location.searchParams.get("error")}`;
            // Only to the one redirect URI the request named, which must be a loopback one.
            expect(redirectUris, observed).toHaveLength(1);
            expect(response.headers.get("location")?.startsWith(redirectUris[0]), observed).toBe(true);
            expect(["127.0.0.1", "[::1]", "localhost"], observed).toContain(location.hostname);
            expect(CLIENT_ERRORS, observed).toContain(location.searchParams.get("error"));
            expect(location.searchParams.get("iss"), observed).toBe(APP_URL);
            expect(location.searchParams.has("code"), observed).toBe(false);
            expect(changedTables(before, after), observed).toEqual([]);
          }
          answers.set(kind, (answers.get(kind) ?? 0) + 1);
          before = after;
        }),
        { seed: SEED, numRuns: NUM_RUNS },
      );
      console.log(`hostile GET /oauth/authorize: ${[...answers].map(([kind, count]) => `${kind}×${count}`).join(" ")}`);
      // Each kind of answer is reached: a route that refuses everything fails here.
      expect(answers.get("init page") ?? 0).toBeGreaterThanOrEqual(50);
      expect(answers.get("refused invalid_redirect_uri") ?? 0).toBeGreaterThanOrEqual(10);
      expect(answers.get("client invalid_request") ?? 0).toBeGreaterThanOrEqual(10);
    },
    PROPERTY_TIMEOUT_MS,
  );
});
