import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import { POST as requestResetRoute } from "@/app/auth/password-reset/request/route";
import { POST as resetPasswordRoute } from "@/app/auth/password-reset/route";
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
        token: fc.oneof(
          { arbitrary: fc.constant("{token}"), weight: 5 },
          { arbitrary: fc.constantFrom("", "A".repeat(43), "{used}", "short", "x".repeat(44)), weight: 2 },
          { arbitrary: hostileTextArb(), weight: 1 },
          { arbitrary: fc.constant(undefined), weight: 1 },
        ),
        password: fc.oneof(
          { arbitrary: fc.string({ minLength: 10, maxLength: 40 }), weight: 4 },
          { arbitrary: fc.constantFrom("short", "p".repeat(PASSWORD_MAX + 1)), weight: 1 },
          { arbitrary: hostileTextArb(), weight: 1 },
          { arbitrary: fc.constant(undefined), weight: 1 },
        ),
      });
      const prisma = await db();
      const newLink = async (usedAt: Date | null) => {
        const token = randomSecret();
        const now = new Date();
        await prisma.emailLink.create({
          data: { id: randomId(), userId: person.userId, purpose: "reset_password", tokenHash: hashSecret(token), email: person.email, createdAt: now, expiresAt: new Date(now.getTime() + 1_800_000), usedAt },
        });
        return token;
      };
      const fill = (text: string, token: string, used: string) => text.replaceAll("%7Btoken%7D", token).replaceAll("%7Bused%7D", used);
      const answers = await assertHostileForm(
        "POST /auth/password-reset",
        formInputArb(fields, "token="),
        (input, tokens: { token: string; used: string }) => {
          const body: BodySpec = input.body.kind === "text" ? { kind: "text", text: fill(input.body.text, tokens.token, tokens.used) } : input.body;
          return postForm(resetPasswordRoute, {
            path: "/auth/password-reset",
            params: {},
            shown: "/auth/password-reset",
            input,
            body,
            sessions: { session: person.session, signedOut: person.signedOut },
            secrets: [person.session, person.signedOut, tokens.token, tokens.used, ...formValuesOf(input.body, "password")],
          });
        },
        async () => ({ token: await newLink(null), used: await newLink(new Date()) }),
      );
      expectSuccesses("POST /auth/password-reset", "303 without error=, a password set", answers.get("ok") ?? 0, MIN_RESET);
    },
    PROPERTY_TIMEOUT_MS,
  );
});
