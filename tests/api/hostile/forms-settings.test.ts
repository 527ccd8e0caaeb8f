import fc from "fast-check";
import { randomBytes } from "node:crypto";
import { beforeAll, describe, it } from "vitest";
import { POST as passkeyOptionsRoute } from "@/app/settings/passkeys/options/route";
import { POST as addPasskeyRoute } from "@/app/settings/passkeys/add/route";
import { POST as changePasswordRoute } from "@/app/settings/password/change/route";
import { startSession } from "@/lib/auth/sessions";
import { config } from "@/lib/config";
import { db } from "@/lib/database/db";
import { PASSKEY_NAME_MAX, PASSWORD_MAX } from "@/lib/field-lengths";
import { issueChallenge } from "@/lib/passkeys/challenges";
import { COOKIE_NAME, SITE } from "../../helpers/forms";
import {
  assertHostile,
  assertHostileForm,
  clientHeadersArb,
  contentTypeArb,
  declaredLengthArb,
  expectSuccesses,
  formPairsArb,
  formValuesOf,
  headerText,
  HOSTILE_ATOMS,
  hostileTextArb,
  jsonBodyArb,
  NUM_RUNS,
  PROPERTY_TIMEOUT_MS,
  queryArb,
  SEED,
  sendToRoute,
  urlEncoded,
  type BodySpec,
  type FormField,
} from "../../helpers/hostile";
import { anyPost, OWN_PAGE, ownPagePost, postForm, signedInPerson, type FormInput } from "../../helpers/hostile-forms";
import { PASSWORD } from "../../helpers/journey.mjs";
import { addedPasskey, SoftwareAuthenticator } from "../../helpers/passkeys";

// Hostile input through HTTP, property-based: generated fields, bodies, content types, origins,
// cookies and headers thrown at the settings forms that take a proof of the account: the
// password change (the current password), and adding a passkey: its options (the proof: the
// current password or an assertion of one of the account's passkeys) and its form (the new
// passkey). Seed, number of runs, each form's documented codes and the checks: tests/helpers/hostile/.

/** Password changes (a 303 without error=) of the 1,000 requests, about half the fixed seed's count: a route that refuses everything must fail the property. */
const MIN_CHANGED = 55;
/** Passkeys added of the 1,000 requests, about half the fixed seed's count. */
const MIN_ADDED = 100;
/** Registration options handed out (200) of the 1,000 requests, about half the fixed seed's count. */
const MIN_OPTIONS = 10;

type Person = Awaited<ReturnType<typeof signedInPerson>>;

let changer: Person & { passwordHash: string | null };
let adder: Person;
let bare: Person;
let keyed: Person;
/** A registration and an assertion that answer challenges never handed out: well-formed, refused (passkey_rejected) before anything is written. */
let staleRegistration: string;
let staleAssertion: unknown;

const passwordHashOf = async (userId: string) => (await (await db()).user.findUniqueOrThrow({ where: { id: userId }, select: { passwordHash: true } })).passwordHash;
const neverIssued = () => randomBytes(32).toString("base64url");
const creationOptions = (challenge: string) => ({
  challenge,
  rp: { id: new URL(SITE).hostname, name: "initlink" },
  user: { id: "dXNlcg", name: "person", displayName: "person" },
  pubKeyCredParams: [{ type: "public-key" as const, alg: -7 }],
});

beforeAll(async () => {
  const person = await signedInPerson();
  changer = { ...person, passwordHash: await passwordHashOf(person.userId) };
  adder = await signedInPerson();
  bare = await signedInPerson();
  keyed = await signedInPerson();
  const authenticator = new SoftwareAuthenticator();
  await addedPasskey(keyed.session, authenticator);
  staleRegistration = JSON.stringify(new SoftwareAuthenticator().register(creationOptions(neverIssued())));
  staleAssertion = authenticator.assert({ challenge: neverIssued(), rpId: new URL(SITE).hostname });
}, 120_000);

/** Passwords: the right one mostly, wrong ones of a valid length, and hostile ones. */
function currentPasswordArb(): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { arbitrary: fc.constant(PASSWORD), weight: 4 },
    { arbitrary: fc.string({ minLength: 10, maxLength: 40 }), weight: 2 },
    { arbitrary: fc.constantFrom("", PASSWORD.toUpperCase(), `${PASSWORD} `, "p".repeat(PASSWORD_MAX), "p".repeat(PASSWORD_MAX + 1), "\ud800\ud800 password"), weight: 1 },
    { arbitrary: hostileTextArb(), weight: 1 },
    { arbitrary: fc.constant(undefined), weight: 1 },
  );
}

/** One in three: a post as this site's page, as the person; else anything. */
function formInputArb(fields: fc.Arbitrary<FormField[]>, hugePrefix: string): fc.Arbitrary<FormInput> {
  const encoded = fields.map((pairs): BodySpec => ({ kind: "text", text: urlEncoded(pairs) }));
  const ownPage: fc.Arbitrary<FormInput> = fc.record(ownPagePost(fc.constantFrom(...OWN_PAGE), fc.constant(`${COOKIE_NAME}={session}`), encoded));
  return fc.oneof({ arbitrary: ownPage, weight: 1 }, { arbitrary: fc.record(anyPost(fields, hugePrefix)), weight: 2 });
}

describe("hostile input through HTTP: the password change and adding a passkey", () => {
  it(
    `POST /settings/password/change answers ${NUM_RUNS} generated requests (seed ${SEED}) with a 303 on this site, a documented code, and a refusal writes only its counters`,
    async () => {
      const fields = formPairsArb({
        current_password: currentPasswordArb(),
        new_password: fc.oneof(
          { arbitrary: fc.string({ minLength: 10, maxLength: 40 }), weight: 4 },
          { arbitrary: fc.constantFrom(PASSWORD, "short", "p".repeat(PASSWORD_MAX + 1)), weight: 1 },
          { arbitrary: hostileTextArb(), weight: 1 },
          { arbitrary: fc.constant(undefined), weight: 1 },
        ),
      });
      // A change signs this browser in again and ends its session: the next request gets a fresh
      // session, and the fixture's password back, before its fingerprint is taken.
      let session = changer.session;
      let changed = false;
      const answers = await assertHostileForm(
        "POST /settings/password/change",
        formInputArb(fields, "current_password="),
        async (input, current: string) => {
          const sent = await postForm(changePasswordRoute, {
            path: "/settings/password/change",
            params: {},
            shown: "/settings/password/change",
            input,
            sessions: { session: current, signedOut: changer.signedOut },
            secrets: [current, changer.signedOut, ...formValuesOf(input.body, "current_password"), ...formValuesOf(input.body, "new_password")],
          });
          changed = sent.response.headers.get("set-cookie") !== null;
          return sent;
        },
        async () => {
          if (!changed) return session;
          const prisma = await db();
          await prisma.user.update({ where: { id: changer.userId }, data: { passwordHash: changer.passwordHash } });
          session = await startSession(config(), changer.userId, { address: "127.0.0.1", userAgent: null });
          changed = false;
          return session;
        },
      );
      expectSuccesses("POST /settings/password/change", "303 without error=, a password changed", answers.get("ok") ?? 0, MIN_CHANGED);
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    `POST /settings/passkeys/add answers ${NUM_RUNS} generated requests (seed ${SEED}) with a 303 on this site, a documented code, and a refusal writes nothing`,
    async () => {
      // `{credential}`: a fresh registration answering a challenge handed to the person (as the options, after their proof, do).
      const fields = formPairsArb({
        name: fc.oneof(
          { arbitrary: fc.string({ minLength: 1, maxLength: 30 }).filter((name) => name.trim() !== ""), weight: 4 },
          { arbitrary: fc.constantFrom("", "  ", "n".repeat(PASSKEY_NAME_MAX), "n".repeat(PASSKEY_NAME_MAX + 1), ...HOSTILE_ATOMS), weight: 1 },
          { arbitrary: hostileTextArb(), weight: 1 },
          { arbitrary: fc.constant(undefined), weight: 1 },
        ),
        credential: fc.oneof(
          { arbitrary: fc.constant("{credential}"), weight: 5 },
          { arbitrary: fc.constantFrom("{}", "{not json", "null", '{"id":"x"}', "{stale}"), weight: 2 },
          { arbitrary: hostileTextArb(), weight: 1 },
          { arbitrary: fc.constant(undefined), weight: 1 },
        ),
      });
      const fill = (text: string, credential: string) =>
        text.replaceAll("%7Bcredential%7D", encodeURIComponent(credential)).replaceAll("%7Bstale%7D", encodeURIComponent(staleRegistration));
      const answers = await assertHostileForm(
        "POST /settings/passkeys/add",
        formInputArb(fields, "name=laptop&credential="),
        (input, credential: string) => {
          const body = input.body.kind === "text" ? { ...input.body, text: fill(input.body.text, credential) } : input.body;
          return postForm(addPasskeyRoute, {
            path: "/settings/passkeys/add",
            params: {},
            shown: "/settings/passkeys/add",
            input,
            body,
            sessions: { session: adder.session, signedOut: adder.signedOut },
            secrets: [adder.session, adder.signedOut],
          });
        },
        // No passkey left from the request before (the account would fill up), and a challenge for this one.
        async (input) => {
          const prisma = await db();
          await prisma.passkey.deleteMany({ where: { userId: adder.userId } });
          if (input.body.kind !== "text" || !input.body.text.includes("%7Bcredential%7D")) return "";
          const challenge = await issueChallenge({ purpose: "register", userId: adder.userId, subject: null });
          return JSON.stringify(new SoftwareAuthenticator().register(creationOptions(challenge)));
        },
      );
      expectSuccesses("POST /settings/passkeys/add", "303 without error=, a passkey added", answers.get("ok") ?? 0, MIN_ADDED);
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    `POST /settings/passkeys/options answers ${NUM_RUNS} generated requests (seed ${SEED}) as documented, and a refusal writes only the counters of a wrong password`,
    async () => {
      const shaped = fc.oneof(
        { arbitrary: fc.record({ current_password: currentPasswordArb() }, { requiredKeys: [] }), weight: 4 },
        { arbitrary: fc.record({ passkey_assertion: fc.constantFrom(staleAssertion, {}, null, "x", { id: "x", type: "public-key" }) }), weight: 2 },
        { arbitrary: fc.record({ current_password: currentPasswordArb(), passkey_assertion: fc.constantFrom(staleAssertion, {}) }, { requiredKeys: [] }), weight: 1 },
        { arbitrary: fc.record({ current_password: fc.constantFrom(...HOSTILE_ATOMS, 0, null, [], {}), extra: fc.jsonValue({ maxDepth: 1 }) }, { requiredKeys: [] }), weight: 1 },
      );
      const input = fc.record({
        // The account without a passkey takes the password; the one with a passkey, only an assertion.
        account: fc.constantFrom("bare", "keyed"),
        cookie: fc.oneof(
          { arbitrary: fc.constant("{session}"), weight: 10 },
          { arbitrary: fc.constant(undefined), weight: 1 },
          { arbitrary: fc.constantFrom("{signedOut}", "{session}x", "", "a".repeat(101)), weight: 1 },
          { arbitrary: headerText(60).map((value) => value.replace(/[{}]/g, "")), weight: 1 },
        ),
        origin: fc.oneof({ arbitrary: fc.constant<string | undefined>(SITE), weight: 8 }, { arbitrary: fc.constantFrom(undefined, "null", "https://evil.example", `${SITE}.evil.example`), weight: 2 }),
        body: jsonBodyArb(shaped),
        contentType: fc.oneof({ arbitrary: fc.constant("application/json"), weight: 6 }, { arbitrary: contentTypeArb(), weight: 2 }),
        declaredLength: declaredLengthArb(),
        headers: clientHeadersArb().map((headers) => headers.filter(([name]) => name !== "cookie")),
        query: queryArb(),
      });
      const answered = await assertHostile("POST /settings/passkeys/options", input, async ({ account, cookie, origin, body, contentType, declaredLength, headers, query }) => {
        const person = account === "bare" ? bare : keyed;
        const cookieValue = cookie === undefined ? undefined : `${COOKIE_NAME}=${cookie.replaceAll("{session}", person.session).replaceAll("{signedOut}", person.signedOut)}`;
        const text = body.kind === "text" ? body.text : "";
        const sent = await sendToRoute(passkeyOptionsRoute, {
          method: "POST",
          path: "/settings/passkeys/options",
          query,
          params: {},
          headers,
          extra: { cookie: cookieValue, origin, "content-type": contentType, "content-length": declaredLength },
          body,
          shown: `/settings/passkeys/options (${account})`,
          secrets: [person.session, person.signedOut, ...(text.includes(PASSWORD) ? [PASSWORD] : [])],
        });
        // A wrong password counts as a failed sign-in would (lib/auth/password-check.ts).
        const code = sent.response.status === 401 || sent.response.status === 429 ? (await sent.response.clone().json()).code : null;
        return { ...sent, mayChange: code === "wrong_password" || code === "rate_limited" ? ["RateLimit"] : [] };
      });
      expectSuccesses("POST /settings/passkeys/options", "200, options handed out", answered.get(200) ?? 0, MIN_OPTIONS);
    },
    PROPERTY_TIMEOUT_MS,
  );
});
