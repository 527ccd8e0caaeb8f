import { generateKeyPairSync } from "node:crypto";
import fc from "fast-check";
import { SignJWT } from "jose";
import { beforeAll, describe, it } from "vitest";
import { POST as linkRoute } from "@/app/api/projects/[projectId]/link/[iv]/route";
import { GET as projectRoute } from "@/app/api/projects/[projectId]/route";
import { config } from "@/lib/config";
import { db } from "@/lib/database/db";
import { revokeProjectLink } from "@/lib/links/manage-links";
import { signLinkBearer } from "@/lib/links/link-bearer";
import { createAccessToken } from "@/lib/access-tokens/issue-access-token";
import { revokeAccessToken } from "@/lib/access-tokens/manage-access-tokens";
import { hostileProofs, newDpopKey } from "../../helpers/dpop";
import { approvedClient, linked, publishedJwks, randomIv } from "../../helpers/links";
import { approvedDevice, exchange } from "../../helpers/oauth";
import {
  assertHostile,
  authorizationArb,
  clientHeadersArb,
  contentTypeArb,
  credentialArb,
  declaredLengthArb,
  dpopHeaderArb,
  encodeSegment,
  expectSuccesses,
  hexText,
  ivArb,
  jsonBodyArb,
  jwtShapedArb,
  NUM_RUNS,
  preview,
  PROPERTY_TIMEOUT_MS,
  queryArb,
  SEED,
  segmentArb,
  sendToRoute,
  sometimes,
  tamperedJwtArb,
} from "../../helpers/hostile";

// Hostile input, property-based: generated project ids, ivs, bearer values, bodies and
// headers (DPoP proofs among them) thrown at Create Project Link and at the link bearer's project resource. Seed, number
// of runs and the documented answers: tests/helpers/hostile/.

/** Links answered (200) of the 1,000 requests, about half the fixed seed's count: a route that refuses everything must fail the property. */
const MIN_LINKED = 75;
/** Project reads (200) of the 1,000 requests, about half the fixed seed's count: a route that refuses everything must fail the property. */
const MIN_READ = 100;

type Fixtures = {
  projectIds: string[];
  ivs: string[];
  accessTokens: string[];
  jwts: string[];
  forged: string[];
  kids: string[];
  /** Pairs that succeed, to reach the answers past authentication. */
  goodLink: { projectId: string; accessToken: string };
  goodBearer: { projectId: string; jwt: string };
  /** A DPoP-bound token (RFC 9449), an iv for it, and proofs made for that link, good and broken. */
  bound: { projectId: string; accessToken: string; iv: string; proofs: string[] };
};
let fixtures: Fixtures;

const b64json = (value: unknown) => Buffer.from(JSON.stringify(value), "utf8").toString("base64url");

beforeAll(async () => {
  const alpha = await approvedClient("Alpha");
  const beta = await approvedClient("Beta");
  const own = await linked(alpha.projectId, alpha.accessToken);
  // A personal token of Alpha's owner holds another iv: Alpha's client gets 409 link_conflict on it.
  const personal = await createAccessToken(alpha.userId, { name: "personal", scope: "all", lifetime: "30" });
  const conflicting = await linked(alpha.projectId, personal.token);
  // A revoked link: 409 link_revoked for its iv, 401 for its bearer.
  const revokedLink = await linked(alpha.projectId, alpha.accessToken);
  await revokeProjectLink(alpha.userId, alpha.projectId, revokedLink.link_id);
  const revokedToken = await createAccessToken(alpha.userId, { name: "revoked", scope: "all", lifetime: "7" });
  const prisma = await db();
  const revokedRow = await prisma.accessToken.findFirstOrThrow({ where: { name: "revoked", userId: alpha.userId } });
  await revokeAccessToken(alpha.userId, revokedRow.id);
  const expiredToken = await createAccessToken(alpha.userId, { name: "expired", scope: "all", lifetime: "7" });
  await prisma.accessToken.update({ where: { id: expiredToken.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
  const betaLink = await linked(beta.projectId, beta.accessToken);
  const dpopKey = await newDpopKey();
  const device = await approvedDevice("Gamma", { dpop: (await hostileProofs(dpopKey, "POST", "/api/oauth/device_authorization"))[0] });
  const gamma = (await (await exchange(device.device_code, undefined, { dpop: (await hostileProofs(dpopKey, "POST", "/api/oauth/token"))[0] })).json()) as { access_token: string; project_id: string };
  const boundIv = randomIv();

  // Forged and expired bearers for Alpha's link.
  const jwks = await publishedJwks();
  const kid = jwks.keys[0].kid;
  const claims = { project_id: alpha.projectId, sub: own.link_id, jti: "AAAAAAAAAAAAAAAAAAAAAA" };
  const now = Math.floor(Date.now() / 1000);
  const full = (signer: SignJWT) => signer.setIssuer("https://initlink.test").setAudience(`https://initlink.test/api/projects/${alpha.projectId}`).setSubject(own.link_id).setIssuedAt().setExpirationTime(now + 3600);
  const impostor = generateKeyPairSync("ed25519").privateKey;
  const forged = [
    `${b64json({ alg: "none", typ: "at+jwt" })}.${b64json({ ...claims, iss: "https://initlink.test", aud: `https://initlink.test/api/projects/${alpha.projectId}`, iat: now, exp: now + 3600 })}.`,
    await full(new SignJWT(claims).setProtectedHeader({ alg: "HS256", kid, typ: "at+jwt" })).sign(new TextEncoder().encode(jwks.keys[0].x)),
    await full(new SignJWT(claims).setProtectedHeader({ alg: "EdDSA", kid, typ: "at+jwt" })).sign(impostor),
    await signLinkBearer(config(), { linkId: own.link_id, projectId: alpha.projectId, teamId: null, clientId: "AAAAAAAAAAAAAAAAAAAAAA", accountId: alpha.userId, upstream: null, expiresAt: new Date(Date.now() - 1000) }),
  ];

  fixtures = {
    projectIds: [alpha.projectId, beta.projectId],
    ivs: [own.iv, conflicting.iv, revokedLink.iv, betaLink.iv],
    accessTokens: [alpha.accessToken, personal.token, revokedToken.token, expiredToken.token, beta.accessToken],
    jwts: [own.jwt, conflicting.jwt, revokedLink.jwt, betaLink.jwt],
    forged,
    kids: jwks.keys.map((key) => key.kid),
    goodLink: { projectId: alpha.projectId, accessToken: alpha.accessToken },
    goodBearer: { projectId: alpha.projectId, jwt: own.jwt },
    bound: {
      projectId: gamma.project_id,
      accessToken: gamma.access_token,
      iv: boundIv,
      proofs: await hostileProofs(dpopKey, "POST", `/api/projects/${gamma.project_id}/link/${boundIv}`, gamma.access_token),
    },
  };
}, 180_000);

describe("hostile input: Create Project Link and the link bearer", () => {
  it(
    `POST /api/projects/{projectId}/link/{iv}: answers ${NUM_RUNS} generated requests (seed ${SEED}) as documented, and a refusal writes nothing`,
    async () => {
      const { projectIds, ivs, accessTokens, jwts, forged, kids, goodLink, bound } = fixtures;
      const credential = credentialArb([...accessTokens, ...jwts], fc.oneof(jwtShapedArb(kids, projectIds), tamperedJwtArb(jwts), fc.constantFrom(...forged)));
      const target = fc.oneof(
        { arbitrary: fc.record({ projectId: segmentArb(projectIds), authorization: authorizationArb(credential) }), weight: 1 },
        // A token that reaches the project, so that the iv, the body and the 409s are reached too.
        {
          arbitrary: fc.record({
            projectId: fc.oneof({ arbitrary: fc.constant(goodLink.projectId), weight: 3 }, { arbitrary: segmentArb(projectIds), weight: 1 }),
            authorization: fc.constant<string | undefined>(`Bearer ${goodLink.accessToken}`),
          }),
          weight: 1,
        },
        // The DPoP-bound token, with a proof or none, as a bearer or under DPoP.
        {
          arbitrary: fc.record({
            projectId: fc.constant(bound.projectId),
            authorization: fc.constantFrom<string | undefined>(`DPoP ${bound.accessToken}`, `DPoP ${bound.accessToken}`, `Bearer ${bound.accessToken}`),
          }),
          weight: 1,
        },
      );
      const input = fc.record({
        target,
        // The fixtures' ivs (a retry, link_conflict, link_revoked, another project's, the bound token's), fresh ones, hostile ones.
        iv: fc.oneof({ arbitrary: fc.constantFrom(...ivs, bound.iv), weight: 2 }, { arbitrary: hexText(32, 32), weight: 1 }, { arbitrary: ivArb(ivs), weight: 3 }),
        dpop: sometimes(dpopHeaderArb(bound.proofs), 1),
        body: fc.oneof({ arbitrary: fc.constant({ kind: "none" } as const), weight: 3 }, { arbitrary: jsonBodyArb(fc.jsonValue({ maxDepth: 2 })), weight: 1 }),
        contentType: contentTypeArb(),
        declaredLength: declaredLengthArb(),
        headers: clientHeadersArb(),
        query: queryArb(),
      });
      const answered = await assertHostile("POST /api/projects/{projectId}/link/{iv}", input, ({ target: { projectId, authorization }, iv, dpop, body, contentType, declaredLength, headers, query }) =>
        sendToRoute(linkRoute, {
          method: "POST",
          path: `/api/projects/${encodeSegment(projectId)}/link/${encodeSegment(iv)}`,
          query,
          params: { projectId, iv },
          headers,
          extra: { authorization, dpop, "content-type": body.kind === "none" ? undefined : contentType, "content-length": declaredLength },
          body,
          shown: `/api/projects/{projectId}/link/{iv} projectId=${JSON.stringify(preview(projectId))} iv=${JSON.stringify(preview(iv))}`,
        }),
      );
      expectSuccesses("POST /api/projects/{projectId}/link/{iv}", "200, a link", answered.get(200) ?? 0, MIN_LINKED);
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    `GET /api/projects/{projectId}: answers ${NUM_RUNS} generated requests (seed ${SEED}) as documented, and a refusal writes nothing`,
    async () => {
      const { projectIds, accessTokens, jwts, forged, kids, goodBearer } = fixtures;
      const credential = credentialArb([...jwts, ...forged, ...accessTokens], fc.oneof(jwtShapedArb(kids, projectIds), tamperedJwtArb([...jwts, ...forged])));
      const target = fc.oneof(
        { arbitrary: fc.record({ projectId: segmentArb(projectIds), authorization: authorizationArb(credential) }), weight: 3 },
        {
          arbitrary: fc.record({
            projectId: fc.oneof({ arbitrary: fc.constant(goodBearer.projectId), weight: 3 }, { arbitrary: segmentArb(projectIds), weight: 1 }),
            authorization: fc.constant<string | undefined>(`Bearer ${goodBearer.jwt}`),
          }),
          weight: 1,
        },
      );
      const input = fc.record({ target, headers: clientHeadersArb(), query: queryArb() });
      const answered = await assertHostile("GET /api/projects/{projectId}", input, ({ target: { projectId, authorization }, headers, query }) =>
        sendToRoute(projectRoute, {
          method: "GET",
          path: `/api/projects/${encodeSegment(projectId)}`,
          query,
          params: { projectId },
          headers,
          extra: { authorization },
          shown: `/api/projects/{projectId} projectId=${JSON.stringify(preview(projectId))}`,
        }),
      );
      expectSuccesses("GET /api/projects/{projectId}", "200, the project", answered.get(200) ?? 0, MIN_READ);
    },
    PROPERTY_TIMEOUT_MS,
  );
});
