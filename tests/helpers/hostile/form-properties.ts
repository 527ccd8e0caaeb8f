import fc from "fast-check";
import { expect } from "vitest";
import { FORM_FLASH_COOKIE } from "@/lib/api/form-flash";
import { clearedOidcFlowCookie, oidcFlowCookieName } from "@/lib/api/oidc-cookie";
import { sessionCookieName } from "@/lib/api/session-cookie";
import { config } from "@/lib/config";
import { pageMessage, type ErrorCode } from "@/lib/errors";
import { type RouteName, operationNamed } from "./documented";
import { type Fingerprint, changedTables, databaseFingerprint } from "./fingerprint";
import { preview } from "./generators";
import { NUM_RUNS, SEED } from "./properties";

// The forms' property: the runner that sends each generated post and checks its 303.

// =============================================================================================
// HTML forms: the same properties through the form
// routes, which lib/api/route.ts wraps so that every answer is a 303: a failure back to the
// form's page with `?error=<code>`, a success on to the next page. The properties live in
// tests/api/hostile/forms-*.test.ts.
// =============================================================================================

/**
 * The codes each form may send back in `?error=` are its declaration's (lib/api/operations/), each
 * one a code the page has its own message for (lib/errors.ts's `page`, checked through
 * pageMessage by assertHostileForm). `internal_error` is never allowed.
 *
 * `countedRefusals`: the documented exception to "a refused request writes nothing". docs/configuration.md:
 * "Refused sign-ins and sign-ups are the one kind of refused request that
 * writes (their counters: each attempt costs a password hash)" and "Only requests that passed
 * validation count". So a sign-in or sign-up refused after validation (wrong password, email
 * taken, over a limit) may change the RateLimit table, and only it; one refused before (not
 * this site, not a form, too large, invalid fields) writes nothing at all, like every other form.
 * `backgroundTables`: a new project's RSA key is written to ProjectKey in the background after
 * its approval, so whenever it is done: during a later request, which must not be blamed for it.
 */
const FORM_WRITES: Partial<Record<RouteName, { countedRefusals: readonly ErrorCode[]; backgroundTables?: readonly string[] }>> = {
  "POST /auth/signup": { countedRefusals: ["email_taken", "rate_limited"] },
  "POST /auth/signin": { countedRefusals: ["invalid_credentials", "rate_limited"] },
  "POST /init/{id}/approve": { countedRefusals: [], backgroundTables: ["ProjectKey"] },
  // A code that matches no waiting request counts against the account and address (RFC 8628 §5.1).
  "POST /device/enter": { countedRefusals: ["unknown_user_code", "rate_limited"] },
  // An identity provider's answer that passed the flow's checks counts as a sign-in attempt of the
  // address before it is taken to the provider (lib/identity/callback.ts).
  "GET /auth/oidc/callback": { countedRefusals: ["oidc_denied", "oidc_invalid_response", "oidc_unavailable", "oidc_no_email", "oidc_email_taken", "oidc_already_linked", "rate_limited"] },
  // A wrong current password counts as a failed sign-in would (lib/auth/password-check.ts).
  "POST /settings/password/change": { countedRefusals: ["wrong_password", "rate_limited"] },
  // Each reset request counts against its address; a success queues mail that the outbox sends
  // after the answer, whenever it gets to it.
  "POST /auth/password-reset/request": { countedRefusals: ["rate_limited"], backgroundTables: ["OutboxEmail"] },
  // A new password is hashed for every attempt past validation, so each counts as a sign-in would.
  // Past the account's five link mails an hour, a request is refused by the counter it took.
  "POST /settings/email/verify": { countedRefusals: ["rate_limited"], backgroundTables: ["OutboxEmail"] },
  // It queues no mail, but the outbox may still be sending what earlier requests queued.
  "POST /auth/verify-email": { countedRefusals: [], backgroundTables: ["OutboxEmail"] },
  "POST /auth/password-reset": {
    countedRefusals: ["email_link_invalid", "email_link_used", "email_link_voided", "email_link_expired", "rate_limited"],
    backgroundTables: ["OutboxEmail"],
  },
  // Not listed, as their refusals write nothing: the new-team form's limit (lib/teams/teams.ts)
  // takes its unit only while there is room (a request over the limit is refused by a counter it
  // leaves as it was) and gives it back when the request is refused after all
  // (countedUnlessRefused, lib/limits/rate-limit.ts). So does the invite form's, whose JSON
  // answers the API routes' property checks (tests/api/hostile/forms-teams.test.ts).
};

/**
 * The forms whose success leaves for the identity provider's authorization endpoint
 * (lib/api/operations/oidc.ts), the flow in its cookie; and the one whose refusals clear that cookie.
 */
const PROVIDER_STARTS: readonly RouteName[] = ["GET /auth/oidc/start", "GET /auth/oidc/link"];
const FLOW_ENDS: readonly RouteName[] = ["GET /auth/oidc/callback"];

/** The forms whose success starts a session: there the Set-Cookie, not `error=` in Location, tells success from failure. */
const SESSION_FORMS: readonly RouteName[] = ["POST /auth/signup", "POST /auth/signin"];

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
 * whose Location is an absolute URL on APP_URL's origin (or, for a sign-in through the identity
 * provider that starts, the provider's, with its flow's cookie); a failure carries exactly one `error`,
 * a code documented for the form (never internal_error) that the page has a message for, sets
 * no cookie, and writes nothing (but the documented counters); no password or session token of
 * the request appears in Location unless the request's own URL carried it.
 */
export async function checkFormAnswer(route: RouteName, sent: FormSent, before: Fingerprint, after: Fingerprint): Promise<string> {
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
  const provider = config().oidc;
  if (PROVIDER_STARTS.includes(route) && provider !== null && target.origin === new URL(provider.issuer).origin) {
    // A flow started: to the provider with the public halves of its checks, the rest sealed in the cookie.
    expect(target.searchParams.get("code_challenge_method"), `a start without PKCE\n${observed}`).toBe("S256");
    expect(setCookie, `a start without its flow\n${observed}`).toMatch(new RegExp(`^${oidcFlowCookieName(config())}=v1\\.`));
    return "ok";
  }
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
  expect(operationNamed(route).errors as readonly string[], `code not documented for this form\n${observed}`).toContain(code);
  // The one cookie a refusal may set: a refused sign-in or sign-up keeps its email for the form's
  // page (lib/api/form-flash.ts), and never a secret of the request.
  if (setCookie !== null && SESSION_FORMS.includes(route) && setCookie.startsWith(`${FORM_FLASH_COOKIE}=`)) {
    const kept = decodeURIComponent(setCookie.slice(FORM_FLASH_COOKIE.length + 1).split(";")[0]);
    for (const secret of sent.secrets.filter((value) => value.length >= 8)) {
      expect(kept.includes(secret), `the kept form carries a secret of the request: ${JSON.stringify(preview(secret))}\n${observed}`).toBe(false);
    }
  } else if (FLOW_ENDS.includes(route)) {
    // A flow is used once: every answer of the callback clears its cookie, and sets no other.
    expect(setCookie, `a refusal sets a cookie other than the cleared flow\n${observed}`).toBe(clearedOidcFlowCookie(config()));
  } else {
    expect(setCookie, `a refusal sets a cookie\n${observed}`).toBeNull();
  }
  // The one documented write of a refusal: a sign-in or sign-up refused after validation counts
  // against its address (and account); see FORM_WRITES.
  const writes = FORM_WRITES[route];
  const ignored = [...(writes?.backgroundTables ?? []), ...((writes?.countedRefusals as readonly string[] | undefined)?.includes(code) ? ["RateLimit"] : [])];
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
  route: RouteName,
  arbitrary: fc.Arbitrary<T>,
  send: (input: T, prepared: C) => Promise<FormSent>,
  prepare?: (input: T) => Promise<C>,
): Promise<Map<string, number>> {
  // Every code the table allows must have its own message on the page (MESSAGES), not the generic one.
  const generic = pageMessage("internal_error");
  for (const code of operationNamed(route).errors) expect(pageMessage(code), `${route}: ${code} has no page message of its own in lib/errors.ts`).not.toBe(generic);

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
