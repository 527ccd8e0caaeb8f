import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import { POST as requestResetRoute } from "@/app/auth/password-reset/request/route";
import { POST as resetPasswordRoute } from "@/app/auth/password-reset/route";
import { POST as verifyEmailRoute } from "@/app/auth/verify-email/route";
import { POST as resendVerificationRoute } from "@/app/settings/email/verify/route";
import { db } from "@/lib/database/db";
import { EMAIL_MAX, PASSWORD_MAX } from "@/lib/field-lengths";
import { hashSecret, randomId, randomSecret } from "@/lib/secrets";
import { COOKIE_NAME } from "../../helpers/forms";
import { assertHostileForm, expectSuccesses, formPairsArb, formValuesOf, hostileTextArb, NUM_RUNS, PROPERTY_TIMEOUT_MS, SEED, urlEncoded, type BodySpec } from "../../helpers/hostile";
import { anyPost, OWN_PAGE, ownPagePost, postForm, signedInPerson, type FormInput } from "../../helpers/hostile-forms";
import { startTestSmtpServer, type TestMailbox } from "../../helpers/smtp";

// Hostile input through HTTP, property-based: generated fields, bodies, content types, origins,
// cookies and headers thrown at the mailed links' forms: "Forgot your password?" and the reset
// page's form with the link's token. A real SMTP server takes what the outbox sends. Seed, number
// of runs, each form's documented codes and the checks: tests/helpers/hostile/.

/** Reset requests answered (303 without error=), about half the fixed seed's count; the address's limit refuses the rest. */
const MIN_REQUESTED = 60;
/** Passwords set of the 1,000 requests, about half the fixed seed's count. */
const MIN_RESET = 70;
/** Emails confirmed of the 1,000 requests, about half the fixed seed's count. */
const MIN_CONFIRMED = 119;
/** New confirmation links sent of the 1,000 requests: the account's five mails an hour, then rate_limited. */
const MIN_RESENT = 5;

let mailbox: TestMailbox;
let person: Awaited<ReturnType<typeof signedInPerson>>;

beforeAll(async () => {
  mailbox = await startTestSmtpServer();
  Object.assign(process.env, { SMTP_URL: mailbox.url, EMAIL_FROM: "login@initlink.test" });
  person = await signedInPerson();
}, 120_000);

afterAll(async () => {
  await mailbox.close();
});

/** One in three: a post as this site's page; else anything. */
function formInputArb(fields: fc.Arbitrary<[string, string][]>, hugePrefix: string): fc.Arbitrary<FormInput> {
  const encoded = fields.map((pairs): BodySpec => ({ kind: "text", text: urlEncoded(pairs) }));
  const ownPage: fc.Arbitrary<FormInput> = fc.record(ownPagePost(fc.constantFrom(...OWN_PAGE), fc.constant(`${COOKIE_NAME}={session}`), encoded));
  return fc.oneof({ arbitrary: ownPage, weight: 1 }, { arbitrary: fc.record(anyPost(fields, hugePrefix)), weight: 2 });
}

/** Fills `{token}` and `{used}` in a generated form body. */
const filled = (body: BodySpec, tokens: { token: string; used: string }): BodySpec =>
  body.kind === "text" ? { kind: "text", text: body.text.replaceAll("%7Btoken%7D", tokens.token).replaceAll("%7Bused%7D", tokens.used) } : body;

/** A fresh link of the person's for `purpose`, unused or used: its token. */
async function newLink(purpose: "reset_password" | "verify_email", usedAt: Date | null): Promise<string> {
  const prisma = await db();
  const token = randomSecret();
  const now = new Date();
  await prisma.emailLink.create({
    data: { id: randomId(), userId: person.userId, purpose, tokenHash: hashSecret(token), email: person.email, createdAt: now, expiresAt: new Date(now.getTime() + 1_800_000), usedAt },
  });
  return token;
}

/** Tokens: a fresh one mostly, a used one, made-up and hostile ones. */
const tokenArb = () =>
  fc.oneof(
    { arbitrary: fc.constant("{token}"), weight: 5 },
    { arbitrary: fc.constantFrom("", "A".repeat(43), "{used}", "short", "x".repeat(44)), weight: 2 },
    { arbitrary: hostileTextArb(), weight: 1 },
    { arbitrary: fc.constant(undefined), weight: 1 },
  );

describe("hostile input through HTTP: the mailed links' forms", () => {
  it(
    `POST /auth/password-reset/request answers ${NUM_RUNS} generated requests (seed ${SEED}) with a 303 on this site, a documented code, and a refusal writes only its counters`,
    async () => {
      const fields = formPairsArb({
        email: fc.oneof(
          { arbitrary: fc.constant(person.email), weight: 3 },
          { arbitrary: fc.emailAddress().filter((email) => email.length <= EMAIL_MAX), weight: 2 },
          { arbitrary: fc.constantFrom("", "not an email", `${"e".repeat(EMAIL_MAX)}@example.com`, person.email.toUpperCase()), weight: 1 },
          { arbitrary: hostileTextArb(), weight: 1 },
          { arbitrary: fc.constant(undefined), weight: 1 },
        ),
      });
      const answers = await assertHostileForm("POST /auth/password-reset/request", formInputArb(fields, "email="), (input) =>
        postForm(requestResetRoute, {
          path: "/auth/password-reset/request",
          params: {},
          shown: "/auth/password-reset/request",
          input,
          sessions: { session: person.session, signedOut: person.signedOut },
          secrets: [person.session, person.signedOut],
        }),
      );
      expectSuccesses("POST /auth/password-reset/request", "303 without error=", answers.get("ok") ?? 0, MIN_REQUESTED);
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    `POST /auth/password-reset answers ${NUM_RUNS} generated requests (seed ${SEED}) with a 303 on this site, a documented code, and a refusal writes only its counters`,
    async () => {
      // `{token}`: a fresh link of the person's, made before each request.
      const fields = formPairsArb({
        token: tokenArb(),
        password: fc.oneof(
          { arbitrary: fc.string({ minLength: 10, maxLength: 40 }), weight: 4 },
          { arbitrary: fc.constantFrom("short", "p".repeat(PASSWORD_MAX + 1)), weight: 1 },
          { arbitrary: hostileTextArb(), weight: 1 },
          { arbitrary: fc.constant(undefined), weight: 1 },
        ),
      });
      const answers = await assertHostileForm(
        "POST /auth/password-reset",
        formInputArb(fields, "token="),
        (input, tokens: { token: string; used: string }) =>
          postForm(resetPasswordRoute, {
            path: "/auth/password-reset",
            params: {},
            shown: "/auth/password-reset",
            input,
            body: filled(input.body, tokens),
            sessions: { session: person.session, signedOut: person.signedOut },
            secrets: [person.session, person.signedOut, tokens.token, tokens.used, ...formValuesOf(input.body, "password")],
          }),
        async () => ({ token: await newLink("reset_password", null), used: await newLink("reset_password", new Date()) }),
      );
      expectSuccesses("POST /auth/password-reset", "303 without error=, a password set", answers.get("ok") ?? 0, MIN_RESET);
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    `POST /auth/verify-email answers ${NUM_RUNS} generated requests (seed ${SEED}) with a 303 on this site, a documented code, and a refusal writes nothing`,
    async () => {
      const fields = formPairsArb({ token: tokenArb() });
      const answers = await assertHostileForm(
        "POST /auth/verify-email",
        formInputArb(fields, "token="),
        (input, tokens: { token: string; used: string }) =>
          postForm(verifyEmailRoute, {
            path: "/auth/verify-email",
            params: {},
            shown: "/auth/verify-email",
            input,
            body: filled(input.body, tokens),
            sessions: { session: person.session, signedOut: person.signedOut },
            secrets: [person.session, person.signedOut, tokens.token, tokens.used],
          }),
        async () => ({ token: await newLink("verify_email", null), used: await newLink("verify_email", new Date()) }),
      );
      expectSuccesses("POST /auth/verify-email", "303 without error=, an email confirmed", answers.get("ok") ?? 0, MIN_CONFIRMED);
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    `POST /settings/email/verify answers ${NUM_RUNS} generated requests (seed ${SEED}) with a 303 on this site, a documented code, and a refusal writes only its counters`,
    async () => {
      // An account whose email is not confirmed, so that a new link may be sent.
      const unconfirmed = await signedInPerson();
      const fields = formPairsArb({ extra: fc.option(hostileTextArb(), { nil: undefined }) });
      const answers = await assertHostileForm("POST /settings/email/verify", formInputArb(fields, "extra="), (input) =>
        postForm(resendVerificationRoute, {
          path: "/settings/email/verify",
          params: {},
          shown: "/settings/email/verify",
          input,
          sessions: { session: unconfirmed.session, signedOut: unconfirmed.signedOut },
          secrets: [unconfirmed.session, unconfirmed.signedOut],
        }),
      );
      expectSuccesses("POST /settings/email/verify", "303 without error=, a link sent", answers.get("ok") ?? 0, MIN_RESENT);
    },
    PROPERTY_TIMEOUT_MS,
  );
});
