import fc from "fast-check";
import { describe, it } from "vitest";
import { GET as healthRoute } from "@/app/api/health/route";
import { GET as liveRoute } from "@/app/api/live/route";
import { GET as jwksRoute } from "@/app/api/well-known/jwks/route";
import { GET as oauthMetadataRoute } from "@/app/api/well-known/oauth-authorization-server/route";
import { GET as resourceMetadataRoute } from "@/app/api/well-known/oauth-protected-resource/route";
import {
  assertHostile,
  authorizationArb,
  clientHeadersArb,
  contentTypeArb,
  credentialArb,
  expectSuccesses,
  jwtShapedArb,
  NUM_RUNS,
  PROPERTY_TIMEOUT_MS,
  queryArb,
  SEED,
  sendToRoute,
  type RouteName,
} from "../../helpers/hostile";

// Hostile input, property-based: generated headers and query strings thrown at the
// routes that take no input: the JWKS, the OAuth metadata, readiness and liveness. Seed, number of runs and the
// documented answers: tests/helpers/hostile/.

const input = fc.record({
  authorization: authorizationArb(credentialArb(["ilat_AudKZwucI6wsqZhncOHqAlRHpNFbChlRx9Cx4zXg4jE"], jwtShapedArb(["kid"], ["f0hzLD1VaTUHWk7oIoQhpg"]))),
  contentType: contentTypeArb(),
  headers: clientHeadersArb(),
  query: queryArb(),
});

/** 200s of the 1,000 requests, about half the fixed seed's count: a route that refuses everything must fail the property. */
const MIN_OK = 500;

type Get = (request: Request, context: { params: Promise<Record<string, never>> }) => Response | Promise<Response>;

const routes: [RouteName, string, Get][] = [
  ["GET /.well-known/jwks.json", "/.well-known/jwks.json", jwksRoute],
  ["GET /.well-known/oauth-authorization-server", "/.well-known/oauth-authorization-server", oauthMetadataRoute],
  ["GET /.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource", resourceMetadataRoute],
  ["GET /api/health", "/api/health", healthRoute],
  ["GET /api/live", "/api/live", liveRoute],
];

describe("hostile input: routes without input", () => {
  it.each(routes)(
    `%s: answers ${NUM_RUNS} generated requests (seed ${SEED}) as documented, and a refusal writes nothing`,
    async (route, path, handler) => {
      const answered = await assertHostile(route, input, ({ authorization, contentType, headers, query }) =>
        sendToRoute(handler, { method: "GET", path, query, params: {}, headers, extra: { authorization, "content-type": contentType } }),
      );
      expectSuccesses(route, "200", answered.get(200) ?? 0, MIN_OK);
    },
    PROPERTY_TIMEOUT_MS,
  );
});
