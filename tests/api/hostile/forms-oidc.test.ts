import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as callbackRoute } from "@/app/auth/oidc/callback/route";
import { GET as linkRoute } from "@/app/auth/oidc/link/route";
import { GET as startRoute } from "@/app/auth/oidc/start/route";
import { POST as unlinkRoute } from "@/app/settings/identity/[id]/unlink/route";
import { oidcFlowCookieName } from "@/lib/api/oidc-cookie";
import { sessionCookieName } from "@/lib/api/session-cookie";
import { config } from "@/lib/config";
import { db } from "@/lib/database/db";
import { randomId } from "@/lib/secrets";
import { SITE } from "../../helpers/forms";
import {
  assertHostileForm,
  base64urlText,
  clientHeadersArb,
  expectSuccesses,
  fillCookie,
  formOriginArb,
  formPairsArb,
  headerText,
  HOSTILE_ATOMS,
  hostileTextArb,
  encodeSegment,
  NUM_RUNS,
  pathParam,
  preview,
  PROPERTY_TIMEOUT_MS,
  queryArb,
  returnToQueryArb,
  SEED,
  segmentArb,
  sendToRoute,
  sessionCookieArb,
  sometimes,
  type FormSent,
  type HeaderList,
  type OriginHeaders,
} from "../../helpers/hostile";
import { anyPost, postForm, signedInPerson, type FormInput } from "../../helpers/hostile-forms";
import { dispatch } from "../../helpers/in-process";
import { CLIENT_ID, CLIENT_SECRET, startTestProvider, type TestProvider } from "../../helpers/oidc-provider";

// Hostile input through HTTP, property-based: generated queries, cookies, origins and headers
// thrown at the identity provider's sign-in (its button, the settings' Link, the callback the
// provider sends the browser back to) and at the Unlink button. A real provider upstream
// (tests/helpers/oidc-provider.ts): a generated answer that carries the flow's own state goes on
// to it, which refuses its made-up code. Seed, runs and the checks: tests/helpers/hostile/
// (checkFormAnswer: a start may leave for the provider with its flow; a callback clears its flow
// whatever it answers; a refusal writes nothing but the sign-in counters of FORM_WRITES).

/** Flows started (a 303 to the provider) of the 1,000 requests, about half the fixed seed's count. */
const MIN_STARTED = 300;
const MIN_LINKS_STARTED = 250;
/** Callbacks whose answer went on to the provider (refused there, or there by the person), about half the fixed seed's count. */
const MIN_AT_PROVIDER = 150;
/** Identities unlinked, about half the fixed seed's count. */
const MIN_UNLINKED = 90;

let provider: TestProvider;
let fixtures: Awaited<ReturnType<typeof signedInPerson>> & { flow: string; state: string };

beforeAll(async () => {
  provider = await startTestProvider(`${SITE}/auth/oidc/callback`);
  Object.assign(process.env, { OIDC_ISSUER: provider.issuer, OIDC_CLIENT_ID: CLIENT_ID, OIDC_CLIENT_SECRET: CLIENT_SECRET });
  const person = await signedInPerson();
  // One flow for the whole property: a refusal does not spend it.
  const started = await dispatch("GET", "/auth/oidc/start", { headers: { "sec-fetch-site": "same-origin" } });
  const flowName = oidcFlowCookieName(config());
  const flow = started.headers.getSetCookie()[0].split(";")[0].slice(flowName.length + 1);
  const state = new URL(started.headers.get("location") ?? "").searchParams.get("state") ?? "";
  fixtures = { ...person, flow, state };
}, 120_000);

afterAll(() => provider.stop());

type GetInput = { origin: OriginHeaders; cookie: string | undefined; headers: HeaderList; query: string };

const withoutCookieHeader = () => clientHeadersArb().map((headers) => headers.filter(([name]) => name !== "cookie"));

/** Fills the placeholders of a generated query or cookie: the flow, its state, the sessions, the provider. */
function filled(template: string): string {
  return fillCookie(template, fixtures).replaceAll("{flow}", fixtures.flow).replaceAll("{state}", encodeSegment(fixtures.state)).replaceAll("{issuer}", encodeSegment(provider.issuer));
}

/** A navigation to `path` (a GET: no body), as the generated input has it. */
async function navigate(route: typeof startRoute, path: string, input: GetInput): Promise<FormSent> {
  const { origin, cookie, headers, query } = input;
  const extra = { cookie: cookie === undefined ? undefined : filled(cookie), origin: origin.origin, "sec-fetch-site": origin.fetchSite };
  const sent = await sendToRoute(route, { method: "GET", path, query: filled(query), params: {}, headers, extra, shown: path });
  return { ...sent, secrets: [fixtures.session, fixtures.signedOut, fixtures.flow] };
}

/** The callback's query: mostly the flow's own state with a made-up code (or the provider's error), else other states, none, repeated, garbage. */
function callbackQueryArb(): fc.Arbitrary<string> {
  const value = fc.oneof(base64urlText(1, 64), fc.constantFrom(...HOSTILE_ATOMS), hostileTextArb());
  const iss = fc.constantFrom("&iss={issuer}", "", "&iss=https%3A%2F%2Fevil.example", "&iss={issuer}&iss={issuer}");
  return fc.oneof(
    { withCrossShrink: true },
    { arbitrary: fc.tuple(value, iss).map(([code, issuer]) => `?code=${encodeSegment(code)}&state={state}${issuer}`), weight: 6 },
    { arbitrary: fc.tuple(fc.oneof(fc.constantFrom("access_denied", "login_required", "server_error", "temporarily_unavailable"), value), iss).map(([error, issuer]) => `?error=${encodeSegment(error)}&error_description=x&state={state}${issuer}`), weight: 2 },
    { arbitrary: fc.tuple(value, value).map(([code, state]) => `?code=${encodeSegment(code)}&state=${encodeSegment(state)}`), weight: 2 },
    { arbitrary: fc.constantFrom("?code=a&state={state}&state=other", "?state={state}", "?code=a", "?code=a&state=", "?code=a&state={state}&code=b&iss={issuer}"), weight: 1 },
    { arbitrary: queryArb(), weight: 1 },
  );
}

/** The callback's cookies: mostly this browser's flow, else none, a tampered or spent-looking one, two, the session beside it, garbage. */
function flowCookieArb(): fc.Arbitrary<string | undefined> {
  const flow = oidcFlowCookieName(config());
  const session = sessionCookieName(config());
  return fc.oneof(
    { withCrossShrink: true },
    { arbitrary: fc.constant(`${flow}={flow}`), weight: 8 },
    { arbitrary: fc.constant(undefined), weight: 2 },
    {
      arbitrary: fc.constantFrom(
        `${flow}={flow}x`,
        `${flow}=`,
        `${flow}={flow}; ${flow}={flow}`,
        `initlink_oidc={flow}`,
        `${flow}=v1.AAAA.BBBB.CCCC`,
        `${flow}=v2.{flow}`,
        `${flow}={flow}; ${session}={session}`,
        `${session}={session}`,
        `${flow}={flow}; ${session}={session}; ${session}=evil`,
        `${flow}="{flow}"`,
      ),
      weight: 3,
    },
    { arbitrary: headerText(80).map((text) => `${flow}=${text.replace(/[{}]/g, "")}`), weight: 1 },
  );
}

describe("hostile input through HTTP: signing in through the identity provider", () => {
  it(
    `GET /auth/oidc/callback answers ${NUM_RUNS} generated requests (seed ${SEED}) with a 303 on this site, a documented code, the flow's cookie cleared, and no write but the counters`,
    async () => {
      const input: fc.Arbitrary<GetInput> = fc.record({ origin: formOriginArb(SITE), cookie: flowCookieArb(), headers: withoutCookieHeader(), query: callbackQueryArb() });
      const answers = await assertHostileForm("GET /auth/oidc/callback", input, (generated) => navigate(callbackRoute, "/auth/oidc/callback", generated));
      const atProvider = (answers.get("error=oidc_invalid_response") ?? 0) + (answers.get("error=oidc_denied") ?? 0);
      expectSuccesses("GET /auth/oidc/callback", "answers that went on to the provider", atProvider, MIN_AT_PROVIDER);
      expect(answers.get("ok") ?? 0, "a made-up code signed someone in").toBe(0);
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    `GET /auth/oidc/start answers ${NUM_RUNS} generated requests (seed ${SEED}) with a 303 to the provider or back on this site, a documented code, and writes nothing`,
    async () => {
      const input: fc.Arbitrary<GetInput> = fc.record({ origin: formOriginArb(SITE), cookie: sometimes(sessionCookieArb(1)), headers: withoutCookieHeader(), query: returnToQueryArb() });
      const answers = await assertHostileForm("GET /auth/oidc/start", input, (generated) => navigate(startRoute, "/auth/oidc/start", generated));
      expectSuccesses("GET /auth/oidc/start", "303 to the provider", answers.get("ok") ?? 0, MIN_STARTED);
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    `GET /auth/oidc/link answers ${NUM_RUNS} generated requests (seed ${SEED}) with a 303 to the provider or back on this site, a documented code, and writes nothing`,
    async () => {
      const input: fc.Arbitrary<GetInput> = fc.record({ origin: formOriginArb(SITE), cookie: sessionCookieArb(), headers: withoutCookieHeader(), query: queryArb() });
      const answers = await assertHostileForm("GET /auth/oidc/link", input, (generated) => navigate(linkRoute, "/auth/oidc/link", generated));
      expectSuccesses("GET /auth/oidc/link", "303 to the provider", answers.get("ok") ?? 0, MIN_LINKS_STARTED);
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    `POST /settings/identity/{id}/unlink answers ${NUM_RUNS} generated requests (seed ${SEED}) with a 303 on this site, a documented code, and a refusal writes nothing`,
    async () => {
      const { userId, session, signedOut } = fixtures;
      const prisma = await db();
      let identities = 0;
      // A fresh identity of the person's (another provider each: one per provider and account), who has a password: unlinking it is allowed.
      const freshIdentity = async () => {
        const id = randomId();
        identities += 1;
        await prisma.federatedIdentity.create({ data: { id, issuer: `https://idp-${identities}.example`, subject: "hostile", userId, createdAt: new Date() } });
        return id;
      };
      const known = [await freshIdentity()];
      type UnlinkInput = FormInput & { id: { fresh: true } | { fresh: false; segment: string; raw: boolean } };
      const id = fc.oneof(
        { arbitrary: fc.constant<{ fresh: true }>({ fresh: true }), weight: 2 },
        { arbitrary: fc.record({ fresh: fc.constant<false>(false), segment: segmentArb(known), raw: fc.boolean() }), weight: 2 },
      );
      const input: fc.Arbitrary<UnlinkInput> = fc.record({ id, ...anyPost(formPairsArb({ extra: sometimes(hostileTextArb()) }), "x=") });
      const answers = await assertHostileForm(
        "POST /settings/identity/{id}/unlink",
        input,
        (generated, freshId: string | null) => {
          const segment = generated.id.fresh ? { inUrl: freshId ?? "", param: freshId ?? "" } : pathParam(generated.id.segment, generated.id.raw);
          const shown = generated.id.fresh ? "(fresh)" : JSON.stringify(preview(segment.param));
          return postForm(unlinkRoute, {
            path: `/settings/identity/${segment.inUrl}/unlink`,
            params: { id: segment.param },
            shown: `/settings/identity/{id}/unlink id=${shown}`,
            input: generated,
            sessions: { session, signedOut },
            secrets: [session, signedOut],
          });
        },
        async (generated) => (generated.id.fresh ? freshIdentity() : null),
      );
      expectSuccesses("POST /settings/identity/{id}/unlink", "303 without error=, an identity unlinked", answers.get("ok") ?? 0, MIN_UNLINKED);
    },
    PROPERTY_TIMEOUT_MS,
  );
});
