import fc from "fast-check";
import { describe, it } from "vitest";
import { POST as introspectRoute } from "@/app/api/oauth/introspect/route";
import { POST as revokeRoute } from "@/app/api/oauth/revoke/route";
import { POST as tokenRoute } from "@/app/api/oauth/token/route";
import { MAX_FORM_BODY_BYTES } from "@/lib/api/body";
import { db } from "@/lib/database/db";
import {
  assertHostile,
  authorizationArb,
  type BodySpec,
  clientHeadersArb,
  credentialArb,
  expectSuccesses,
  formBodySpecArb,
  formContentTypeArb,
  formPairsArb,
  hostileTextArb,
  jwtShapedArb,
  NUM_RUNS,
  PROPERTY_TIMEOUT_MS,
  queryArb,
  SEED,
  type Sent,
  sendToRoute,
  sometimes,
  tamperedJwtArb,
} from "../../helpers/hostile";
import { linked, publishedJwks } from "../../helpers/links";
import { revokeResourceServer } from "@/lib/resource-servers/manage-resource-servers";
import { basicAuthorization, CLIENT_ID, loggedIn, ownerToken, refresh, resourceServer, tokensOf } from "../../helpers/oauth";

// Hostile input, property-based: generated requests to the
// refresh-token grant, revocation (RFC 7009) and introspection (RFC 7662). Every answer is
// documented, never a 5xx, in OAuth's error shape; a refusal writes nothing, except the reuse of
// a retired refresh token, whose revocation of its login is the point (RFC 9700 §4.14.2).

// Stands in the generated body for the live login's current refresh token, which each success replaces.
const CURRENT = "CURRENTREFRESHTOKEN";

const fixtures = await (async () => {
  const live = await loggedIn("Hostile live");
  const reused = await loggedIn("Hostile reuse");
  const second = await tokensOf(await refresh(reused.tokens.refresh_token));
  await refresh(second.refresh_token);
  const other = await loggedIn("Hostile other");
  const link = await linked(live.tokens.project_id, live.tokens.access_token);
  // Resource servers' credentials: the live project's, a revoked one, another owner's.
  const revokedPlatform = await resourceServer(live.userId, [live.tokens.project_id]);
  await revokeResourceServer(live.userId, revokedPlatform.clientId);
  return {
    live,
    // Two refreshes back: its first presentation revokes its login.
    retired: reused.tokens.refresh_token,
    otherTokens: [other.tokens.access_token, other.tokens.refresh_token],
    credentials: [await ownerToken(live.userId, live.tokens.project_id), await ownerToken(live.userId, "all"), await ownerToken(other.userId, "all")],
    jwt: link.jwt,
    kids: (await publishedJwks()).keys.map((key) => key.kid),
    platforms: [await resourceServer(live.userId, [live.tokens.project_id]), revokedPlatform, await resourceServer(other.userId, [other.tokens.project_id])],
  };
})();

let current = fixtures.live.tokens.refresh_token;

const textValue = fc.oneof(
  { arbitrary: fc.string({ minLength: 1, maxLength: 40 }), weight: 4 },
  { arbitrary: hostileTextArb(), weight: 2 },
  { arbitrary: fc.constantFrom(199, 200, 201, 4001).map((length) => "x".repeat(length)), weight: 1 },
);
const clientId = fc.oneof({ arbitrary: fc.constant(CLIENT_ID), weight: 4 }, { arbitrary: fc.constant("@someone/else"), weight: 1 }, { arbitrary: textValue, weight: 1 });

/** The tokens a request may name: the fixtures', near misses, JWT shapes and garbage. */
function tokenArb(): fc.Arbitrary<string> {
  const { live, retired, otherTokens, credentials, jwt, kids } = fixtures;
  // The live login's refresh tokens are CURRENT only: a retired one would revoke the login at once.
  const known = [live.tokens.access_token, retired, ...otherTokens, ...credentials, jwt];
  return fc.oneof(
    { arbitrary: fc.constant(CURRENT), weight: 3 },
    { arbitrary: credentialArb(known, fc.oneof(jwtShapedArb(kids, [live.tokens.project_id]), tamperedJwtArb([jwt]))), weight: 4 },
    { arbitrary: textValue, weight: 1 },
  );
}

const withCurrent = (body: BodySpec): BodySpec => (body.kind === "text" ? { ...body, text: body.text.replaceAll(CURRENT, current) } : body);

const liveSecrets = () => [
  current,
  fixtures.live.tokens.refresh_token,
  fixtures.retired,
  fixtures.jwt,
  ...fixtures.otherTokens,
  ...fixtures.credentials,
  ...fixtures.platforms.map((platform) => platform.clientSecret),
  fixtures.live.tokens.access_token,
];

/**
 * `Authorization: Basic` of a resource server (client_secret_basic): the fixtures' own, their ids
 * and secrets crossed or near misses, and hostile text in either part.
 */
function basicArb(): fc.Arbitrary<string> {
  const { platforms } = fixtures;
  const ids = platforms.map((platform) => platform.clientId);
  const secrets = platforms.map((platform) => platform.clientSecret);
  const part = (known: string[]) => fc.oneof({ arbitrary: fc.constantFrom(...known), weight: 4 }, { arbitrary: credentialArb(known, textValue), weight: 2 }, { arbitrary: textValue, weight: 1 });
  return fc.oneof(
    { arbitrary: fc.constantFrom(...platforms).map(basicAuthorization), weight: 4 },
    { arbitrary: fc.record({ clientId: part(ids), clientSecret: part(secrets) }).map(basicAuthorization), weight: 3 },
    { arbitrary: fc.tuple(part(ids), part(secrets)).map(([id, secret]) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`), weight: 1 },
  );
}

async function reuseRevocations(): Promise<number> {
  const prisma = await db();
  return prisma.oAuthLogin.count({ where: { revokedReason: "reuse" } });
}

describe("hostile input: refresh, revocation and introspection", () => {
  it(
    `POST /api/oauth/token with grant_type=refresh_token answers ${NUM_RUNS} generated requests (seed ${SEED}) as documented; a refusal writes nothing but a reuse's revocation`,
    async () => {
      const grantType = fc.oneof({ arbitrary: fc.constant("refresh_token"), weight: 6 }, { arbitrary: fc.constant("urn:ietf:params:oauth:grant-type:device_code"), weight: 1 }, { arbitrary: textValue, weight: 1 });
      const pairs = formPairsArb({ grant_type: sometimes(grantType, 1), refresh_token: sometimes(tokenArb(), 1), client_id: sometimes(clientId, 1), scope: sometimes(textValue) });
      // A well-formed refresh now and then, so that the live login keeps rotating through the run.
      const wellFormed = fc.constant<BodySpec>({ kind: "text", text: new URLSearchParams({ grant_type: "refresh_token", refresh_token: CURRENT, client_id: CLIENT_ID }).toString() });
      const body = fc.oneof({ arbitrary: formBodySpecArb(pairs, MAX_FORM_BODY_BYTES, "grant_type="), weight: 9 }, { arbitrary: wellFormed, weight: 1 });
      const input = fc.record({ body, contentType: formContentTypeArb(), headers: clientHeadersArb(), query: queryArb() });
      const answered = await assertHostile("POST /api/oauth/token", input, async ({ body, contentType, headers, query }): Promise<Sent> => {
        const revocationsBefore = await reuseRevocations();
        const sent = await sendToRoute(tokenRoute, { method: "POST", path: "/api/oauth/token", query, params: {}, headers, extra: { "content-type": contentType }, body: withCurrent(body), secrets: liveSecrets() });
        if (sent.response.status === 200) current = ((await sent.response.clone().json()) as { refresh_token: string }).refresh_token;
        const revokedLogin = (await reuseRevocations()) > revocationsBefore;
        return revokedLogin ? { ...sent, mayChange: ["OAuthLogin", "AccessToken", "ActivityEvent"] } : sent;
      });
      expectSuccesses("POST /api/oauth/token (refresh)", "200, a refresh of the live login", answered.get(200) ?? 0, 10);
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    `POST /api/oauth/revoke answers ${NUM_RUNS} generated requests (seed ${SEED}) as documented, and a refusal writes nothing`,
    async () => {
      const hint = fc.oneof(fc.constantFrom("access_token", "refresh_token"), textValue);
      const pairs = formPairsArb({ token: sometimes(tokenArb(), 1), token_type_hint: sometimes(hint), client_id: sometimes(clientId, 1) });
      const input = fc.record({ body: formBodySpecArb(pairs, MAX_FORM_BODY_BYTES, "token="), contentType: formContentTypeArb(), headers: clientHeadersArb(), query: queryArb() });
      const answered = await assertHostile("POST /api/oauth/revoke", input, ({ body, contentType, headers, query }) =>
        sendToRoute(revokeRoute, { method: "POST", path: "/api/oauth/revoke", query, params: {}, headers, extra: { "content-type": contentType }, body: withCurrent(body), secrets: liveSecrets() }),
      );
      expectSuccesses("POST /api/oauth/revoke", "200, revoked or nothing to revoke", answered.get(200) ?? 0, 50);
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    `POST /api/oauth/introspect answers ${NUM_RUNS} generated requests (seed ${SEED}) as documented, and a refusal writes nothing`,
    async () => {
      const { credentials, live, kids } = fixtures;
      const credential = credentialArb([...credentials, live.tokens.access_token], jwtShapedArb(kids, [live.tokens.project_id]));
      const authorization = fc.oneof(
        { arbitrary: authorizationArb(credential), weight: 1 },
        { arbitrary: fc.constantFrom(...credentials).map((value) => `Bearer ${value}`), weight: 2 },
        { arbitrary: basicArb(), weight: 1 },
      );
      const pairs = formPairsArb({ token: sometimes(tokenArb(), 1), token_type_hint: sometimes(textValue) });
      const input = fc.record({ authorization, body: formBodySpecArb(pairs, MAX_FORM_BODY_BYTES, "token="), contentType: formContentTypeArb(), headers: clientHeadersArb(), query: queryArb() });
      const answered = await assertHostile("POST /api/oauth/introspect", input, ({ authorization: header, body, contentType, headers, query }) =>
        sendToRoute(introspectRoute, {
          method: "POST",
          path: "/api/oauth/introspect",
          query,
          params: {},
          headers,
          extra: { authorization: header, "content-type": contentType },
          body: withCurrent(body),
          secrets: liveSecrets(),
        }),
      );
      expectSuccesses("POST /api/oauth/introspect", "200, an introspection", answered.get(200) ?? 0, 60);
    },
    PROPERTY_TIMEOUT_MS,
  );
});
