import fc from "fast-check";
import { beforeAll, describe, it } from "vitest";
import { POST as enterUserCodeRoute } from "@/app/device/enter/route";
import { counterTable, directSql } from "@/lib/database/direct-sql";
import { USER_CODE_INPUT_MAX } from "@/lib/field-lengths";
import { deviceAuthorized } from "../../helpers/oauth";
import { COOKIE_NAME } from "../../helpers/forms";
import { assertHostileForm, expectSuccesses, formPairsArb, hostileTextArb, NUM_RUNS, PROPERTY_TIMEOUT_MS, SEED, urlEncoded, type BodySpec } from "../../helpers/hostile";
import { anyPost, OWN_PAGE, ownPagePost, postForm, signedInPerson, type FormInput } from "../../helpers/hostile-forms";

// Hostile input through HTTP, property-based: generated codes (the waiting
// request's, respelled, wrong, hostile, over the limit, sent twice), bodies, content types,
// origins, cookies and headers thrown at /device's form (RFC 8628 §3.3). A wrong code counts
// against the account and address (FORM_WRITES); anything else refused writes nothing. The
// guess counters are cleared before each request, so that the limits, tested on their own in
// tests/api/oauth/verification-page.test.ts, do not turn every later request into rate_limited.

/** Codes entered (a 303 without error=) of the 1,000 requests, about half the fixed seed's count: a route that refuses everything must fail the property. */
const MIN_ENTERED = 110;

let fixtures: { session: string; signedOut: string };

beforeAll(async () => {
  const { session, signedOut } = await signedInPerson();
  fixtures = { session, signedOut };
}, 120_000);

/** `{userCode}` in the body is a fresh device authorization's code; `{spaced}` the same, lower-case and without its dash. */
function codeArb(): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { arbitrary: fc.constantFrom("{userCode}", "{spaced}"), weight: 4 },
    { arbitrary: fc.constantFrom("AAAA-AAAA", "", " ", "-", "BCDF-GHJK-LMNP", "x".repeat(USER_CODE_INPUT_MAX), "x".repeat(USER_CODE_INPUT_MAX + 1), "\u0000", "\ud800"), weight: 2 },
    { arbitrary: hostileTextArb(), weight: 1 },
    { arbitrary: fc.constant(undefined), weight: 1 },
  );
}

function inputArb(): fc.Arbitrary<FormInput> {
  const fields = formPairsArb({ user_code: codeArb() });
  const encoded = fields.map((pairs): BodySpec => ({ kind: "text", text: urlEncoded(pairs) }));
  const ownPage: fc.Arbitrary<FormInput> = fc.record(ownPagePost(fc.constantFrom(...OWN_PAGE), fc.constant(`${COOKIE_NAME}={session}`), encoded));
  const anything: fc.Arbitrary<FormInput> = fc.record(anyPost(fields, "user_code="));
  return fc.oneof({ arbitrary: ownPage, weight: 1 }, { arbitrary: anything, weight: 2 });
}

const NAMES_A_CODE = /\{(userCode|spaced)\}|%7B(userCode|spaced)%7D/;

/** The guess counters cleared, and a fresh waiting device authorization's code for an input that names one. */
async function prepare(input: FormInput): Promise<string> {
  const sql = await directSql();
  await sql.run(`DELETE FROM ${counterTable("RateLimit")} WHERE "key" LIKE 'user-code-%'`, []);
  return input.body.kind === "text" && NAMES_A_CODE.test(input.body.text) ? (await deviceAuthorized()).user_code : "";
}

describe("hostile input through HTTP: the verification page's form (/device)", () => {
  it(
    `POST /device/enter answers ${NUM_RUNS} generated requests (seed ${SEED}) with a 303 on this site, a documented code, and a refusal writes only its guess`,
    async () => {
      const { session, signedOut } = fixtures;
      const answers = await assertHostileForm(
        "POST /device/enter",
        inputArb(),
        (input, userCode: string) => {
          if (userCode === "") return postForm(enterUserCodeRoute, { path: "/device/enter", params: {}, shown: "/device/enter", input, sessions: { session, signedOut }, secrets: [session, signedOut] });
          const spaced = userCode.toLowerCase().replace("-", " ");
          const fill = (text: string) =>
            text.replaceAll("{userCode}", userCode).replaceAll("%7BuserCode%7D", encodeURIComponent(userCode)).replaceAll("{spaced}", spaced).replaceAll("%7Bspaced%7D", encodeURIComponent(spaced));
          const body = input.body.kind === "text" ? { ...input.body, text: fill(input.body.text) } : input.body;
          return postForm(enterUserCodeRoute, { path: "/device/enter", params: {}, shown: "/device/enter", input, body, sessions: { session, signedOut }, secrets: [session, signedOut] });
        },
        prepare,
      );
      expectSuccesses("POST /device/enter", "303 without error=, a code entered", answers.get("ok") ?? 0, MIN_ENTERED);
    },
    PROPERTY_TIMEOUT_MS,
  );
});
