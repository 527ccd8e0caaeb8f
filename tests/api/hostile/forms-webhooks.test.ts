import fc from "fast-check";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as createEndpointRoute } from "@/app/webhooks/create/route";
import { POST as deleteEndpointRoute } from "@/app/webhooks/[id]/delete/route";
import { POST as resendRoute } from "@/app/webhooks/[id]/deliveries/[messageId]/resend/route";
import { POST as disableEndpointRoute } from "@/app/webhooks/[id]/disable/route";
import { POST as enableEndpointRoute } from "@/app/webhooks/[id]/enable/route";
import { POST as rotateSecretRoute } from "@/app/webhooks/[id]/rotate/route";
import { POST as testEventRoute } from "@/app/webhooks/[id]/test/route";
import { config } from "@/lib/config";
import { db } from "@/lib/database/db";
import { ENDPOINTS_PER_OWNER } from "@/lib/events/endpoints";
import { EVENT_TYPE_NAMES, TEAM_EVENT_TYPES } from "@/lib/events/event-types";
import { ENDPOINT_DESCRIPTION_MAX, ENDPOINT_URL_MAX } from "@/lib/events/schemas";
import { newEndpointSecret, sealEndpointSecret } from "@/lib/events/signing";
import { randomId } from "@/lib/secrets";
import { COOKIE_NAME } from "../../helpers/forms";
import {
  assertHostile,
  assertHostileForm,
  expectSuccesses,
  formPairsArb,
  HOSTILE_ATOMS,
  hostileTextArb,
  NUM_RUNS,
  pathParam,
  preview,
  PROPERTY_TIMEOUT_MS,
  SEED,
  segmentArb,
  sometimes,
  urlEncoded,
  type BodySpec,
  type FormField,
} from "../../helpers/hostile";
import { anyPost, OWN_PAGE, ownPagePost, postForm, signedInPersonWithTeams, type FormInput } from "../../helpers/hostile-forms";

// Hostile input through HTTP, property-based: generated endpoint and message ids, URLs, event
// types, teams, fields, bodies, content types, origins, cookies and headers thrown at the
// webhook endpoints' forms (lib/api/operations/webhooks.ts): the new-endpoint form and Rotate
// secret (both answer JSON: the secret is shown once, never in a URL), and the endpoint page's
// Disable, Enable, Delete, Send a test event and Send again buttons. Every request posts as the
// fixture's person, who owns a team, is a plain member of another person's team and is not in a
// third (tests/helpers/hostile-forms.ts), with endpoints of each of them. Seed, number of runs,
// each form's documented codes and the checks (a refusal writes nothing: the fingerprint covers
// the webhook tables): tests/helpers/hostile/.
//
// Without OUTBOUND_ALLOW_PRIVATE, as in production: a URL at a private or special-purpose address
// is refused; the public addresses the generator uses are written as addresses, so that no
// request waits for DNS. Every endpoint the buttons reach is disabled, so the delivery pass that
// Send a test event and Send again start sends nothing (and writes nothing during a later request).

/** Endpoints made (201) of the 1,000 requests: the fixed seed's count is bounded by the limit of 20 per account and per team. */
const MIN_CREATED = 18;
/** Secrets rotated (200) of the 1,000 requests, about half the fixed seed's count. */
const MIN_ROTATED = 60;
/** Endpoints disabled (a 303 without error=), about half the fixed seed's count. */
const MIN_DISABLED = 80;
/** Endpoints enabled, about half the fixed seed's count. */
const MIN_ENABLED = 80;
/** Endpoints deleted, about half the fixed seed's count. */
const MIN_DELETED = 80;
/** Test events queued, about half the fixed seed's count. */
const MIN_TESTED = 80;
/** Messages sent again, about half the fixed seed's count. */
const MIN_RESENT = 60;

type Fixture = Awaited<ReturnType<typeof signedInPersonWithTeams>> & {
  /** The person's own endpoint, their team's, the other person's team's where the person is a plain member, the other person's team's and own. */
  own: string;
  ownTeamEndpoint: string;
  joinedTeamEndpoint: string;
  othersTeamEndpoint: string;
  othersEndpoint: string;
  /** A team of the person's that has as many endpoints as it may. */
  fullTeam: string;
  /** Delivered messages: of the person's endpoint, their team's, and the other person's. */
  ownMessage: string;
  ownTeamMessage: string;
  othersMessage: string;
};
let fixture: Fixture;

/** An endpoint written directly (the form's own checks are what the properties exercise), disabled unless told otherwise. */
async function storeEndpoint(userId: string, teamId: string | null, disabled = true): Promise<string> {
  const prisma = await db();
  const id = randomId();
  const now = new Date();
  await prisma.webhookEndpoint.create({
    data: {
      id,
      userId,
      teamId,
      url: "https://93.184.215.14/hooks",
      description: "fixture",
      sealedSecret: sealEndpointSecret(config().masterKey, id, newEndpointSecret()),
      createdAt: now,
      disabledAt: disabled ? now : null,
      disabledReason: disabled ? "admin" : null,
      subscriptions: { create: [{ kind: "init_approved" }] },
    },
  });
  return id;
}

async function storeMessage(endpointId: string): Promise<string> {
  const prisma = await db();
  const id = `msg_${randomId().replace(/-/g, "x")}`;
  const now = new Date();
  await prisma.webhookMessage.create({ data: { id, endpointId, kind: "test", occurredAt: now, data: "{}", createdAt: now, nextAttemptAt: now, attempts: 1, outcome: "delivered", endedAt: now } });
  return id;
}

beforeAll(async () => {
  expect(config().outbound.allowPrivate).toBe(false);
  const people = await signedInPersonWithTeams();
  const { userId, otherId, ownTeam, joinedTeam, othersTeam } = people;
  const prisma = await db();
  const fullTeam = randomId();
  await prisma.team.create({ data: { id: fullTeam, name: "Full", createdAt: new Date(), members: { create: { userId, role: "owner", joinedAt: new Date() } } } });
  for (let index = 0; index < ENDPOINTS_PER_OWNER; index++) await storeEndpoint(userId, fullTeam);
  const own = await storeEndpoint(userId, null);
  const ownTeamEndpoint = await storeEndpoint(userId, ownTeam);
  const joinedTeamEndpoint = await storeEndpoint(otherId, joinedTeam);
  const othersTeamEndpoint = await storeEndpoint(otherId, othersTeam);
  const othersEndpoint = await storeEndpoint(otherId, null);
  fixture = {
    ...people,
    own,
    ownTeamEndpoint,
    joinedTeamEndpoint,
    othersTeamEndpoint,
    othersEndpoint,
    fullTeam,
    ownMessage: await storeMessage(own),
    ownTeamMessage: await storeMessage(ownTeamEndpoint),
    othersMessage: await storeMessage(othersEndpoint),
  };
}, 120_000);

/** The sessions a generated cookie's placeholders stand for, and the secrets no answer may carry. */
const signedIn = () => ({ sessions: { session: fixture.session, signedOut: fixture.signedOut }, secrets: [fixture.session, fixture.signedOut] });

/** One in three: a post as this site's page; else anything. */
function formInputArb(fields: fc.Arbitrary<FormField[]>, hugePrefix: string): fc.Arbitrary<FormInput> {
  const encoded = fields.map((pairs): BodySpec => ({ kind: "text", text: urlEncoded(pairs) }));
  const ownPage: fc.Arbitrary<FormInput> = fc.record(ownPagePost(fc.constantFrom(...OWN_PAGE), fc.constant(`${COOKIE_NAME}={session}`), encoded));
  return fc.oneof({ arbitrary: ownPage, weight: 1 }, { arbitrary: fc.record(anyPost(fields, hugePrefix)), weight: 2 });
}

/** A path segment as generated: sent encoded, or (`raw`) as it is when it is itself a path segment. */
type Segment = { segment: string; raw: boolean };

/** Mostly one of `usual`; else one of `known`, a near miss of one, or something hostile. */
const segmentOf = (usual: string[], known: string[]): fc.Arbitrary<Segment> =>
  fc.oneof(
    { arbitrary: fc.constantFrom(...usual).map((segment) => ({ segment, raw: false })), weight: 3 },
    { arbitrary: fc.record({ segment: segmentArb(known), raw: fc.boolean() }), weight: 2 },
  );

/** Every endpoint of the fixture: the person's (own, their team's) and the other person's. */
const allEndpoints = () => [fixture.own, fixture.ownTeamEndpoint, fixture.joinedTeamEndpoint, fixture.othersTeamEndpoint, fixture.othersEndpoint];

/** The fixture's endpoints disabled again (an Enable before made one deliverable), before the requests that could send. */
async function fixtureDisabled(): Promise<void> {
  const prisma = await db();
  await prisma.webhookEndpoint.updateMany({ where: { id: { in: allEndpoints() }, disabledAt: null }, data: { disabledAt: new Date(), disabledReason: "admin" } });
}

/** A button's empty form: now and then a stray field. */
const buttonFields = () => formPairsArb({ extra: sometimes(fc.oneof(fc.constantFrom(...HOSTILE_ATOMS), hostileTextArb())) });

/** Public addresses, as a URL's host: no DNS is asked. */
const PUBLIC_HOSTS = ["8.8.8.8", "1.1.1.1", "93.184.215.14", "[2606:4700:4700::1111]"];
/** Hosts the service must not send to, spelled in the ways that have slipped past such checks. */
const REFUSED_HOSTS = ["127.0.0.1", "10.0.0.1", "[::1]", "[::ffff:127.0.0.1]", "[::127.0.0.1]", "169.254.169.254", "localhost", "192.168.1.1", "0.0.0.0", "0", "100.64.0.1", "[fd00::1]", "0x7f000001", "2130706433", "[64:ff9b::a00:1]", "198.51.100.7"];

function urlArb(): fc.Arbitrary<string | undefined> {
  const path = fc.oneof(fc.constantFrom("/hooks", "/", "", "/initlink/events?source=initlink"), fc.webPath());
  const port = fc.constantFrom("", ":443", ":8443");
  const atLimit = (length: number) => `https://8.8.8.8/${"a".repeat(length - "https://8.8.8.8/".length)}`;
  return fc.oneof(
    { arbitrary: fc.tuple(fc.constantFrom(...PUBLIC_HOSTS), port, path).map(([host, at, rest]) => `https://${host}${at}${rest}`), weight: 6 },
    { arbitrary: fc.tuple(fc.constantFrom(...REFUSED_HOSTS), path).map(([host, rest]) => `https://${host}${rest}`), weight: 2 },
    {
      arbitrary: fc.constantFrom(
        "http://8.8.8.8/hooks",
        "ftp://8.8.8.8/",
        "https://user:pw@8.8.8.8/hooks",
        "https://8.8.8.8/hooks#fragment",
        "8.8.8.8/hooks",
        "//8.8.8.8/hooks",
        "https://",
        "https://[::1",
        "javascript:alert(1)",
        "",
        "   ",
        atLimit(ENDPOINT_URL_MAX),
        atLimit(ENDPOINT_URL_MAX + 1),
      ),
      weight: 2,
    },
    { arbitrary: hostileTextArb(), weight: 1 },
    { arbitrary: fc.constant(undefined), weight: 1 },
  );
}

const PERSONAL_TYPES = EVENT_TYPE_NAMES.filter((type) => !TEAM_EVENT_TYPES.includes(type));

function typesArb(): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { arbitrary: fc.subarray(PERSONAL_TYPES, { minLength: 1 }).map((types) => types.join(" ")), weight: 6 },
    { arbitrary: fc.subarray(EVENT_TYPE_NAMES, { minLength: 1 }).map((types) => types.join(" ")), weight: 2 },
    {
      arbitrary: fc.constantFrom(
        "",
        " ",
        "init.approved  init.approved",
        "init.approve",
        "webhook.test",
        "INIT.APPROVED",
        "init.approved,link.created",
        "init.approved\tlink.created",
        `${EVENT_TYPE_NAMES.join(" ")} x`,
        `${EVENT_TYPE_NAMES.join(" ")} ${EVENT_TYPE_NAMES.join(" ")}`,
        "__proto__",
        "constructor",
      ),
      weight: 2,
    },
    { arbitrary: hostileTextArb(), weight: 1 },
    { arbitrary: fc.constant(undefined), weight: 1 },
  );
}

const textArb = (max: number) =>
  fc.oneof(
    { arbitrary: fc.string({ maxLength: 30 }), weight: 4 },
    { arbitrary: fc.constantFrom(max, max + 1).map((length) => "d".repeat(length)), weight: 1 },
    { arbitrary: hostileTextArb(), weight: 1 },
    { arbitrary: fc.constant(undefined), weight: 1 },
  );

/**
 * Marks the person's session seen now before each property. A signed-in request marks its
 * session seen once 5 minutes have passed since the last mark (lib/auth/sessions.ts): the one
 * write a refused request makes by design, which a slow run of this file's properties reaches.
 */
beforeEach(async () => {
  const prisma = await db();
  await prisma.session.updateMany({ where: { userId: fixture.userId }, data: { lastSeenAt: new Date() } });
});

describe("hostile input through HTTP: the webhook endpoints' forms", () => {
  it(
    `POST /webhooks/create answers ${NUM_RUNS} generated requests (seed ${SEED}) as documented (201 JSON, not a 303), and a refusal writes nothing; at most ${ENDPOINTS_PER_OWNER} endpoints an account or team`,
    async () => {
      const { ownTeam, joinedTeam, othersTeam, fullTeam } = fixture;
      const team = fc.oneof(
        { arbitrary: fc.constantFrom(undefined, ""), weight: 4 },
        { arbitrary: fc.constant(ownTeam), weight: 3 },
        // Full (webhook_endpoint_limit), a plain member's (team_role_required), another's (not_found).
        { arbitrary: fc.constantFrom(fullTeam, joinedTeam, othersTeam), weight: 2 },
        { arbitrary: segmentArb([ownTeam, joinedTeam, othersTeam]), weight: 1 },
        { arbitrary: hostileTextArb(), weight: 1 },
      );
      const fields = formPairsArb({ url: urlArb(), description: textArb(ENDPOINT_DESCRIPTION_MAX), types: typesArb(), team });
      // The form answers JSON (its secret is shown once, never in a URL), so it is checked as the
      // settings pages' POST /settings/tokens/create is (hostile/token-form.test.ts): a documented
      // status, a JSON body, a documented code, and nothing written by a refusal.
      const answered = await assertHostile("POST /webhooks/create", formInputArb(fields, "types=init.approved&url="), (input) =>
        postForm(createEndpointRoute, { path: "/webhooks/create", params: {}, shown: "/webhooks/create", input, ...signedIn() }),
      );
      expectSuccesses("POST /webhooks/create", "201, an endpoint made", answered.get(201) ?? 0, MIN_CREATED);
      // Each kind of refusal of a well-formed request was met.
      for (const status of [400, 403, 404, 409]) expect(answered.get(status) ?? 0, `no request was answered ${status}`).toBeGreaterThan(0);
      const prisma = await db();
      for (const owner of [{ teamId: null, userId: fixture.userId }, { teamId: ownTeam }, { teamId: fullTeam }]) {
        expect(await prisma.webhookEndpoint.count({ where: owner }), "more endpoints than the limit allows").toBeLessThanOrEqual(ENDPOINTS_PER_OWNER);
      }
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    `POST /webhooks/{id}/rotate answers ${NUM_RUNS} generated requests (seed ${SEED}) as documented (200 JSON), and a refusal writes nothing`,
    async () => {
      const { own, ownTeamEndpoint } = fixture;
      const overlap = fc.oneof(
        { arbitrary: fc.constantFrom(undefined, "", "0", "1", "24", "168"), weight: 4 },
        { arbitrary: fc.constantFrom("169", "-1", "1.5", "1e2", " 24", "0x10", "24h", "NaN", "Infinity", "-0", "9".repeat(400)), weight: 2 },
        { arbitrary: hostileTextArb(), weight: 1 },
      );
      const answered = await assertHostile(
        "POST /webhooks/{id}/rotate",
        fc.tuple(segmentOf([own, ownTeamEndpoint], allEndpoints()), formInputArb(formPairsArb({ overlap_hours: overlap }), "overlap_hours=")).map(([endpoint, input]) => ({ ...input, endpoint })),
        (input) => {
          const { inUrl, param } = pathParam(input.endpoint.segment, input.endpoint.raw);
          return postForm(rotateSecretRoute, { path: `/webhooks/${inUrl}/rotate`, params: { id: param }, shown: `/webhooks/{id}/rotate id=${JSON.stringify(preview(param))}`, input, ...signedIn() });
        },
      );
      expectSuccesses("POST /webhooks/{id}/rotate", "200, a secret rotated", answered.get(200) ?? 0, MIN_ROTATED);
      expect(answered.get(404) ?? 0, "another's endpoint was never refused").toBeGreaterThan(0);
    },
    PROPERTY_TIMEOUT_MS,
  );

  for (const [route, handler, action, minimum] of [
    ["POST /webhooks/{id}/disable", disableEndpointRoute, "disable", MIN_DISABLED],
    ["POST /webhooks/{id}/enable", enableEndpointRoute, "enable", MIN_ENABLED],
    ["POST /webhooks/{id}/test", testEventRoute, "test", MIN_TESTED],
  ] as const) {
    it(
      `${route} answers ${NUM_RUNS} generated requests (seed ${SEED}) with a 303 on this site, a documented code, and a refusal writes nothing`,
      async () => {
        const { own, ownTeamEndpoint } = fixture;
        // Enable's successes leave the endpoints enabled: harmless for Enable and Disable, which
        // send nothing, but Send a test event starts a delivery pass.
        await fixtureDisabled();
        const answers = await assertHostileForm(
          route,
          fc.tuple(segmentOf([own, ownTeamEndpoint], allEndpoints()), formInputArb(buttonFields(), "x=")).map(([endpoint, input]) => ({ ...input, endpoint })),
          (input) => {
            const { inUrl, param } = pathParam(input.endpoint.segment, input.endpoint.raw);
            return postForm(handler, { path: `/webhooks/${inUrl}/${action}`, params: { id: param }, shown: `/webhooks/{id}/${action} id=${JSON.stringify(preview(param))}`, input, ...signedIn() });
          },
        );
        expectSuccesses(route, `303 without error=, ${action}`, answers.get("ok") ?? 0, minimum);
        expect(answers.get("error=not_found") ?? 0, "another's endpoint was never refused").toBeGreaterThan(0);
      },
      PROPERTY_TIMEOUT_MS,
    );
  }

  it(
    `POST /webhooks/{id}/deliveries/{messageId}/resend answers ${NUM_RUNS} generated requests (seed ${SEED}) with a 303 on this site, a documented code, and a refusal writes nothing`,
    async () => {
      const { own, ownTeamEndpoint, othersEndpoint, ownMessage, ownTeamMessage, othersMessage } = fixture;
      const messages = [ownMessage, ownTeamMessage, othersMessage];
      const messageSegment = fc.oneof(
        { arbitrary: fc.constantFrom(ownMessage, ownTeamMessage).map((segment) => ({ segment, raw: false })), weight: 3 },
        { arbitrary: fc.record({ segment: segmentArb(messages, fc.constantFrom(...messages)), raw: fc.boolean() }), weight: 2 },
        { arbitrary: fc.constantFrom("msg_", `msg_${"a".repeat(15)}`, `msg_${"a".repeat(65)}`, ownMessage.slice(4), `MSG_${ownMessage.slice(4)}`).map((segment) => ({ segment, raw: false })), weight: 1 },
      );
      const prisma = await db();
      await fixtureDisabled();
      const answers = await assertHostileForm(
        "POST /webhooks/{id}/deliveries/{messageId}/resend",
        fc
          .tuple(segmentOf([own, ownTeamEndpoint, own], [own, ownTeamEndpoint, othersEndpoint]), messageSegment, formInputArb(buttonFields(), "x="))
          .map(([endpoint, message, input]) => ({ ...input, endpoint, message })),
        (input) => {
          const id = pathParam(input.endpoint.segment, input.endpoint.raw);
          const messageId = pathParam(input.message.segment, input.message.raw);
          return postForm(resendRoute, {
            path: `/webhooks/${id.inUrl}/deliveries/${messageId.inUrl}/resend`,
            params: { id: id.param, messageId: messageId.param },
            shown: `/webhooks/{id}/deliveries/{messageId}/resend id=${JSON.stringify(preview(id.param))} messageId=${JSON.stringify(preview(messageId.param))}`,
            input,
            ...signedIn(),
          });
        },
        async () => {
          // Delivered again, so that each request finds a message that has ended, as Send again does.
          await prisma.webhookMessage.updateMany({ where: { id: { in: messages }, outcome: null }, data: { outcome: "delivered", endedAt: new Date() } });
        },
      );
      expectSuccesses("POST /webhooks/{id}/deliveries/{messageId}/resend", "303 without error=, a message sent again", answers.get("ok") ?? 0, MIN_RESENT);
      expect(answers.get("error=not_found") ?? 0, "another's message was never refused").toBeGreaterThan(0);
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    `POST /webhooks/{id}/delete answers ${NUM_RUNS} generated requests (seed ${SEED}) with a 303 on this site, a documented code, and a refusal writes nothing`,
    async () => {
      const { userId, ownTeam, joinedTeamEndpoint, othersTeamEndpoint, othersEndpoint } = fixture;
      // A fresh endpoint of the person's or their team's, made before the request (a success deletes it), or another's, or a segment.
      type Target = { fresh: "own" | "team" } | { fresh: null; segment: string; raw: boolean };
      const others = [joinedTeamEndpoint, othersTeamEndpoint, othersEndpoint];
      const target: fc.Arbitrary<Target> = fc.oneof(
        { arbitrary: fc.constantFrom<Target>({ fresh: "own" }, { fresh: "team" }), weight: 3 },
        { arbitrary: fc.record({ fresh: fc.constant(null), segment: segmentArb(others), raw: fc.boolean() }), weight: 2 },
      );
      const answers = await assertHostileForm(
        "POST /webhooks/{id}/delete",
        fc.tuple(target, formInputArb(buttonFields(), "x=")).map(([endpoint, input]) => ({ ...input, endpoint })),
        (input, freshId: string | null) => {
          const { inUrl, param } = input.endpoint.fresh === null ? pathParam(input.endpoint.segment, input.endpoint.raw) : { inUrl: freshId ?? "", param: freshId ?? "" };
          return postForm(deleteEndpointRoute, { path: `/webhooks/${inUrl}/delete`, params: { id: param }, shown: `/webhooks/{id}/delete id=${JSON.stringify(preview(param))}`, input, ...signedIn() });
        },
        async (input) => (input.endpoint.fresh === null ? null : storeEndpoint(userId, input.endpoint.fresh === "team" ? ownTeam : null)),
      );
      expectSuccesses("POST /webhooks/{id}/delete", "303 without error=, an endpoint deleted", answers.get("ok") ?? 0, MIN_DELETED);
      expect(answers.get("error=not_found") ?? 0, "another's endpoint was never refused").toBeGreaterThan(0);
      // Others' endpoints are all still there.
      expect(await (await db()).webhookEndpoint.count({ where: { id: { in: others } } })).toBe(others.length);
    },
    PROPERTY_TIMEOUT_MS,
  );
});
