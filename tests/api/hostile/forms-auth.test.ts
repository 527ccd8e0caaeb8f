import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as signInRoute } from "@/app/auth/signin/route";
import { POST as signOutRoute } from "@/app/auth/signout/route";
import { POST as signUpRoute } from "@/app/auth/signup/route";
import { startSession } from "@/lib/auth/sessions";
import type { RouteHandler } from "@/lib/api/route";
import { config } from "@/lib/config";
import { SITE } from "../../helpers/forms";
import { assertHostileForm, expectSuccesses, formPairsArb, formValuesOf, hostileTextArb, NUM_RUNS, SEED, sessionCookieArb, sometimes, urlEncoded, type BodySpec, type FormField, type RouteName } from "../../helpers/hostile";
import { anyPost, OWN_PAGE, ownPagePost, postForm, signedInPerson, type FormInput } from "../../helpers/hostile-forms";
import { PASSWORD } from "../../helpers/journey.mjs";

// Hostile input through HTTP, property-based: generated bodies, content
// types, origins, cookies, returnTo values and headers thrown at the sign-up, sign-in and
// sign-out forms. Seed, number of runs, each form's documented codes and the checks:
// tests/helpers/hostile/ (the declared codes, FORM_WRITES, checkFormAnswer).
//
// Time: scrypt costs about 50–100 ms a hash (more on a busy machine), so 1,000 hashed requests
// would take minutes. Most generated requests fail before hashing (cross-site, not a form, too
// large, invalid fields: all cheap), and one in five is built to pass validation from this site
// with a well-formed email and password, so that well over 100 reach the password check (a
// success, a wrong password, a taken email); the test asserts that they did.

/** A sign-in or sign-up may take this long: 1,000 requests, a few hundred password hashes, shrinking. */
const AUTH_TIMEOUT_MS = 600_000;
/** Requests that must reach the password check, of the 1,000. */
const MIN_HASHED = 100;
/** Sign-outs (a 303 without error=) of the 1,000 requests, about half the fixed seed's count: a route that refuses everything must fail the property. */
const MIN_SIGNED_OUT = 375;

let fixtures: Awaited<ReturnType<typeof signedInPerson>>;

beforeAll(async () => {
  fixtures = await signedInPerson();
}, 120_000);

/** What this site's sign-in page sends. */
const ownPage = fc.constantFrom(...OWN_PAGE, { origin: SITE, fetchSite: "same-origin" });

/**
 * Emails that pass validation: the fixture's (any case, padded), fresh ones (`prefix`-n: each
 * property its own, so that sign-in never depends on what the sign-up property made), unusual
 * but valid ones.
 */
function validEmailArb(email: string, prefix: string, freshWeight: number): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.constant(email), weight: 4 },
    { arbitrary: fc.constantFrom(email.toUpperCase(), `  ${email}\t`), weight: 1 },
    // `{unique}` is filled in when the request is sent: a replay while shrinking is fresh too.
    { arbitrary: fc.nat({ max: 100_000 }).map((n) => `${prefix}-${n}.{unique}@example.com`), weight: freshWeight },
    { arbitrary: fc.constantFrom("o'brien+tag.{unique}@example.co.uk", "a.b-c_d.{unique}@sub.example.org", "X.{UNIQUE}@EXAMPLE.COM"), weight: 1 },
  );
}

/** Emails that mostly do not: empty, half, HTML, bidi and control characters, lone surrogates, too long, header injection. */
function hostileEmailArb(email: string, prefix: string): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { arbitrary: validEmailArb(email, prefix, 2), weight: 2 },
    { arbitrary: fc.constant(undefined), weight: 1 },
    {
      arbitrary: fc.constantFrom(
        "",
        " ",
        "a@b",
        "@example.com",
        "a@",
        "a@@example.com",
        "<script>alert(1)</script>@example.com",
        '"><img src=x onerror=alert(1)>@example.com',
        "a\u202e@example.com",
        "a\u0000@example.com",
        "\uff41@example.com",
        "a@exa mple.com",
        `${email}\r\nBcc: x@example.com`,
        `${"a".repeat(242)}@example.com`,
        `${"a".repeat(243)}@example.com`,
        "\ud800@example.com",
        "\ud83d\ude00@example.com",
        email.replace("@", "\u200b@"),
      ),
      weight: 3,
    },
    { arbitrary: hostileTextArb(), weight: 2 },
  );
}

/** Passwords that pass validation (10–1024 UTF-16 units): the right one, random, unicode, control and bidi characters, lone surrogates, HTML. */
function validPasswordArb(): fc.Arbitrary<string> {
  const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
  return fc.oneof(
    { arbitrary: fc.constant(PASSWORD), weight: 4 },
    { arbitrary: fc.string({ minLength: 10, maxLength: 40 }), weight: 3 },
    { arbitrary: fc.string({ unit: "grapheme", minLength: 10, maxLength: 30 }), weight: 1 },
    { arbitrary: fc.string({ unit: codeUnit, minLength: 10, maxLength: 40 }), weight: 1 },
    {
      arbitrary: fc.constantFrom(
        "<script>alert(1)</script>",
        "\u202ecorrect horse battery",
        "correct\u0000horse battery",
        "\ud800\ud800\ud800\ud800\ud800 password",
        " ".repeat(10),
        "p".repeat(1024),
        "\ufb00".repeat(10),
        `${PASSWORD} `,
        PASSWORD.toUpperCase(),
        "correct+horse+battery",
        "correct%20horse%20battery",
      ),
      weight: 2,
    },
  );
}

function hostilePasswordArb(): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { arbitrary: validPasswordArb(), weight: 2 },
    { arbitrary: fc.constant(undefined), weight: 1 },
    { arbitrary: fc.constantFrom("", "short", "123456789", "p".repeat(1025), "\ud83d\ude00".repeat(513)), weight: 2 },
    { arbitrary: hostileTextArb(), weight: 2 },
  );
}

/**
 * One in five: a request from this site's page with well-formed credentials (reaches the
 * password hash); else anything.
 */
function credentialsInputArb(email: string, prefix: string, freshWeight: number): fc.Arbitrary<FormInput> {
  const body = fc
    .oneof(
      formPairsArb({ email: validEmailArb(email, prefix, freshWeight), password: validPasswordArb() }),
      // The fixture's own credentials: a sign-in that succeeds (and so follows returnTo), a taken email.
      fc.constant<FormField[]>([
        ["email", email],
        ["password", PASSWORD],
      ]),
    )
    .map((pairs): BodySpec => ({ kind: "text", text: urlEncoded(pairs) }));
  const hashed: fc.Arbitrary<FormInput> = fc.record(ownPagePost(ownPage, sometimes(sessionCookieArb(1)), body));
  const anything: fc.Arbitrary<FormInput> = fc.record(
    anyPost(formPairsArb({ email: hostileEmailArb(email, prefix), password: hostilePasswordArb() }), `email=${encodeURIComponent(email)}&password=`, 1),
  );
  return fc.oneof({ arbitrary: hashed, weight: 1 }, { arbitrary: anything, weight: 4 });
}

type Route = RouteHandler;

let sent = 0;
/** The body with each `{unique}` (`{UNIQUE}`; as typed or URL-encoded) replaced by a number no other request used. */
function withUniqueEmails(body: BodySpec): BodySpec {
  if (body.kind !== "text" || !/\{unique\}|%7Bunique%7D/i.test(body.text)) return body;
  sent += 1;
  return { ...body, text: body.text.replace(/\{unique\}|%7Bunique%7D/g, `u${sent}`).replace(/\{UNIQUE\}|%7BUNIQUE%7D/g, `U${sent}`) };
}

/** A post as `session`; `secrets` besides the fixture's sessions must not come back in Location. */
const sendForm = (route: Route, path: string, input: FormInput, session: string, secrets: string[]) =>
  postForm(route, { path, params: {}, shown: path, input, body: withUniqueEmails(input.body), sessions: { session, signedOut: fixtures.signedOut }, secrets: [session, fixtures.signedOut, ...secrets] });

async function credentialsProperty(name: RouteName, route: Route, path: string, prefix: string, freshWeight: number, hashedAnswers: string[]) {
  const { email, session } = fixtures;
  const answers = await assertHostileForm(name, credentialsInputArb(email, prefix, freshWeight), (input) => sendForm(route, path, input, session, formValuesOf(input.body, "password")));
  const hashed = hashedAnswers.reduce((sum, answer) => sum + (answers.get(answer) ?? 0), 0);
  console.log(`hostile form ${name}: ${hashed} of ${NUM_RUNS} requests reached the password check (${hashedAnswers.join(", ")})`);
  expect(hashed, "too few requests reached the password check").toBeGreaterThanOrEqual(MIN_HASHED);
}

describe("hostile input through HTTP: the sign-up, sign-in and sign-out forms", () => {
  it(
    `POST /auth/signup answers ${NUM_RUNS} generated requests (seed ${SEED}) with a 303 on this site, a documented code, and no write but the counters`,
    () => credentialsProperty("POST /auth/signup", signUpRoute, "/auth/signup", "signup", 5, ["ok", "error=email_taken"]),
    AUTH_TIMEOUT_MS,
  );

  it(
    `POST /auth/signin answers ${NUM_RUNS} generated requests (seed ${SEED}) with a 303 on this site, a documented code, and no write but the counters`,
    () => credentialsProperty("POST /auth/signin", signInRoute, "/auth/signin", "signin", 1, ["ok", "error=invalid_credentials"]),
    AUTH_TIMEOUT_MS,
  );

  it(
    `POST /auth/signout answers ${NUM_RUNS} generated requests (seed ${SEED}) with a 303 on this site, and a refusal writes nothing`,
    async () => {
      const { userId } = fixtures;
      const input: fc.Arbitrary<FormInput> = fc.record(anyPost(formPairsArb({ extra: sometimes(hostileTextArb()) }), "x="));
      const answers = await assertHostileForm(
        "POST /auth/signout",
        input,
        (generated, session: string) => sendForm(signOutRoute, "/auth/signout", generated, session, [fixtures.session]),
        // A fresh session for each request that signs one out (a success ends it).
        async (generated) => {
          if (generated.cookie === undefined || !/\{session\}|\{SESSION\}/i.test(generated.cookie)) return fixtures.session;
          return startSession(config(), userId, { address: "127.0.0.1", userAgent: null });
        },
      );
      expectSuccesses("POST /auth/signout", "303 without error=", answers.get("ok") ?? 0, MIN_SIGNED_OUT);
    },
    AUTH_TIMEOUT_MS,
  );
});
