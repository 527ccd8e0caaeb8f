import fc from "fast-check";
import { afterAll, expect } from "vitest";
import { takesBearer } from "@/lib/api/authenticate";
import { type RouteName, documentedAnswers, operationNamed, speaksOAuth } from "./documented";
import { type Fingerprint, changedTables, databaseFingerprint } from "./fingerprint";
import { type BodySpec, type HeaderList, buildRequest, describeBody, describeHeaders, preview, requestBody } from "./generators";

// The API routes' property: the runner that sends each generated request and checks its answer.

/** Fixed, so that a failure is reproducible; change it only on purpose. */
export const SEED = 20261122;
/** Generated requests per route (at least 1,000 per endpoint). */
export const NUM_RUNS = 1000;
/** Per property: 1,000 requests and 1,000 database fingerprints, plus shrinking on a failure. */
export const PROPERTY_TIMEOUT_MS = 300_000;

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
  /** Tables this refusal was seen to change on purpose: a refresh token's reuse revoking its login (RFC 9700 §4.14.2). */
  mayChange?: string[];
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

/** What counts a request before its DPoP proof's signature is checked: the Create Init limit, or the device code's poll clock. */
const COUNTED_BEFORE_THE_SIGNATURE: Partial<Record<RouteName, string[]>> = {
  "POST /api/oauth/device_authorization": ["RateLimit"],
  "POST /api/oauth/token": ["InitPollClock"],
};

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
  const oauth = speaksOAuth(route);
  // RFC 6749 §5.2: an OAuth error's code is its `error`.
  const wireCode = oauth ? record.error : record.code;
  const code = response.status >= 400 && typeof wireCode === "string" ? wireCode : "";
  const histogram = histograms.get(route) ?? new Map<string, number>();
  histograms.set(route, histogram);
  const key = code ? `${response.status} ${code}` : String(response.status);
  histogram.set(key, (histogram.get(key) ?? 0) + 1);

  const observed = `${route}\n  request: ${sent.description}\n  answer: ${response.status} ${preview(text, 400)}`;
  expect(response.status, `5xx\n${observed}`).toBeLessThan(500);
  expect(parsed, `not JSON\n${observed}`).toBe(true);
  expect(response.headers.get("content-type") ?? "", `Content-Type not JSON\n${observed}`).toMatch(/^application\/json/);
  const documented = documentedAnswers(route);
  expect(Object.keys(documented).map(Number), `undocumented status\n${observed}`).toContain(response.status);
  if (response.status < 400) return;

  expect(typeof body === "object" && body !== null && !Array.isArray(body), `error not a JSON object\n${observed}`).toBe(true);
  expect(typeof record.error === "string" && record.error.length > 0, `error without a string "error"\n${observed}`).toBe(true);
  if (oauth) expect(Object.keys(record).sort(), `OAuth error not {error, error_description}\n${observed}`).toEqual(["error", "error_description"]);
  else expect(typeof record.code, `error without a string "code"\n${observed}`).toBe("string");
  expect(documented[response.status], `code not documented for ${response.status}\n${observed}`).toContain(code);
  // A route that takes a bearer names the Bearer scheme on its 401 (RFC 6750 §3), or DPoP's for a
  // DPoP-bound token or its proof (RFC 9449 §7.1), or Basic's for refused client credentials
  // (RFC 6749 §5.2); the session cookie's routes name none.
  const challenge = response.headers.get("www-authenticate");
  if (response.status === 401 && !takesBearer(operationNamed(route).auth)) expect(challenge, `Bearer challenge on a cookie route\n${observed}`).toBeNull();
  else if (response.status === 401 && (code === "invalid_dpop_proof" || code === "use_dpop_nonce")) expect(challenge ?? "", `DPoP error without a DPoP challenge\n${observed}`).toMatch(/^DPoP\b/);
  else if (response.status === 401 && code === "invalid_client") expect(challenge ?? "", `invalid_client without a Basic challenge\n${observed}`).toBe('Basic realm="initlink"');
  else if (response.status === 401) expect(challenge ?? "", `401 without WWW-Authenticate\n${observed}`).toMatch(/^(Bearer|DPoP)\b/);
  if (response.status === 429) expect(response.headers.get("retry-after") ?? "", `429 without Retry-After\n${observed}`).toMatch(/^[1-9][0-9]*$/);

  const authorization = request.headers.get("authorization");
  const secrets = [...(authorization !== null ? [authorization] : []), ...(sent.secrets ?? [])].filter((secret) => secret.length >= 8);
  for (const secret of secrets) expect(echoes(text, secret), `secret echoed: ${JSON.stringify(preview(secret))}\n${observed}`).toBe(false);

  // RFC 8628 §3.5: a device-code poll answered authorization_pending or slow_down is a poll, not
  // a refusal: it moves the poll clock, and slow_down lengthens the init's interval. A DPoP proof's
  // signature is checked once the limit or the poll clock has counted the request (lib/oauth/dpop.ts).
  const polled = oauth && (code === "authorization_pending" || code === "slow_down");
  const counted = code === "invalid_dpop_proof" ? (COUNTED_BEFORE_THE_SIGNATURE[route] ?? []) : [];
  const changed = changedTables(before, after, polled ? ["InitPollClock", "Init"] : [...counted, ...(sent.mayChange ?? [])]);
  expect(changed, `a rejected request changed the database (${changed.join(", ")})\n${observed}`).toEqual([]);
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
 * A property must also see successes, not only refusals, so that a route that refuses
 * everything fails it. Logs how many of the NUM_RUNS requests succeeded (`what`), and asserts at
 * least `minimum` (each property's constant, well under the fixed seed's count).
 */
export function expectSuccesses(route: string, what: string, successes: number, minimum: number): void {
  console.log(`hostile ${route}: ${successes} of ${NUM_RUNS} requests succeeded (${what}; at least ${minimum} required)`);
  expect(successes, `${route}: too few successes (${what}): a route that refuses everything must fail`).toBeGreaterThanOrEqual(minimum);
}
