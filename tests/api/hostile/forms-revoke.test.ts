import fc from "fast-check";
import { beforeAll, describe, it } from "vitest";
import { POST as revokeLinkRoute } from "@/app/projects/[id]/links/[linkId]/revoke/route";
import { POST as revokeResourceServerRoute } from "@/app/settings/resource-servers/[id]/revoke/route";
import { POST as revokeTokenRoute } from "@/app/settings/tokens/[id]/revoke/route";
import { db } from "@/lib/database/db";
import { hashSecret, randomId, randomSecret } from "@/lib/secrets";
import { assertHostileForm, expectSuccesses, formPairsArb, HOSTILE_ATOMS, hostileTextArb, NUM_RUNS, pathParam, preview, PROPERTY_TIMEOUT_MS, SEED, segmentArb, sometimes } from "../../helpers/hostile";
import { anyPost, postForm, signedInPersonWithProjects, type FormInput } from "../../helpers/hostile-forms";
import { randomIv } from "../../helpers/journey.mjs";

// Hostile input through HTTP, property-based: generated token, credential,
// project and link ids, bodies, content types, origins, cookies and headers thrown at the Revoke
// buttons of the settings pages (access tokens, resource-server credentials) and of the project
// page (linked clients). Seed, number of
// runs, each form's documented codes and the checks: tests/helpers/hostile/ (the declared codes, FORM_WRITES,
// checkFormAnswer).

/** Tokens revoked (a 303 without error=) of the 1,000 requests, about half the fixed seed's count: a route that refuses everything must fail the property. */
const MIN_TOKENS_REVOKED = 95;
/** Links revoked (a 303 without error=) of the 1,000 requests, about half the fixed seed's count: a route that refuses everything must fail the property. */
const MIN_LINKS_REVOKED = 80;
/** Resource-server credentials revoked (a 303 without error=) of the 1,000 requests, about half the fixed seed's count. */
const MIN_CREDENTIALS_REVOKED = 95;

type Fixtures = {
  session: string;
  signedOut: string;
  personId: string;
  ownProject: string;
  othersProject: string;
  /** The person's token that fresh links are made with (never revoked here: links die with it). */
  linkToken: string;
  tokens: string[];
  links: string[];
  credentials: string[];
};
let fixtures: Fixtures;

async function storeToken(userId: string, data: { projectId?: string; expiresAt?: Date; revokedAt?: Date } = {}): Promise<string> {
  const prisma = await db();
  const id = randomId();
  await prisma.accessToken.create({ data: { id, tokenHash: hashSecret(randomSecret("ilat_")), name: "hostile", userId, createdAt: new Date(), ...data } });
  return id;
}

/** A resource-server credential made directly, for `projectId`: its client_id. */
async function storeCredential(userId: string, projectId: string, revokedAt?: Date): Promise<string> {
  const prisma = await db();
  const id = `ilrs_${randomId()}`;
  await prisma.resourceServerCredential.create({
    data: { id, secretHash: hashSecret(randomSecret("ilrss_")), name: "hostile", userId, createdAt: new Date(), revokedAt, projects: { create: [{ projectId }] } },
  });
  return id;
}

async function storeLink(projectId: string, accessTokenId: string, revokedAt?: Date): Promise<string> {
  const prisma = await db();
  const id = randomId();
  await prisma.projectLink.create({ data: { id, projectId, iv: randomIv(), accessTokenId, userAgent: "acme-cli/2.0", createdAt: new Date(), revokedAt } });
  return id;
}

beforeAll(async () => {
  const { session, signedOut, userId: personId, otherId, ownProject, othersProject } = await signedInPersonWithProjects();
  // Links made directly too: no key is needed to revoke, and none is made in the background.
  const linkToken = await storeToken(personId);
  const othersToken = await storeToken(otherId);
  // Tokens: the person's active (all projects; one project), revoked, expired; another person's.
  const tokens = [
    await storeToken(personId),
    await storeToken(personId, { projectId: ownProject }),
    await storeToken(personId, { revokedAt: new Date() }),
    await storeToken(personId, { expiresAt: new Date(Date.now() - 1000) }),
    othersToken,
  ];
  // Links: the person's project's, active and revoked; another person's project's.
  const links = [await storeLink(ownProject, linkToken), await storeLink(ownProject, linkToken, new Date()), await storeLink(othersProject, othersToken)];
  // Credentials: the person's active and revoked; another person's.
  const credentials = [await storeCredential(personId, ownProject), await storeCredential(personId, ownProject, new Date()), await storeCredential(otherId, othersProject)];
  fixtures = { session, signedOut, personId, ownProject, othersProject, linkToken, tokens, links, credentials };
}, 120_000);

/** A path segment: a fresh row of the person's (made just before the request; a success revokes it), or a segment. */
type Segment = { fresh: true } | { fresh: false; segment: string; raw: boolean };

type RevokeInput = FormInput & { first: Segment; second: Segment };

const existing = (known: string[]): fc.Arbitrary<Segment> => fc.record({ fresh: fc.constant<false>(false), segment: segmentArb(known), raw: fc.boolean() });
const segment = (known: string[], freshWeight: number): fc.Arbitrary<Segment> =>
  fc.oneof({ arbitrary: fc.constant<Segment>({ fresh: true }), weight: freshWeight }, { arbitrary: existing(known), weight: 2 });

function inputArb(first: fc.Arbitrary<Segment>, second: fc.Arbitrary<Segment>): fc.Arbitrary<RevokeInput> {
  return fc.record({ first, second, ...anyPost(formPairsArb({ extra: sometimes(fc.oneof(fc.constantFrom(...HOSTILE_ATOMS), hostileTextArb())) }), "x=") });
}

/** A post as the person, whose sessions must not come back in Location. */
function post(input: RevokeInput) {
  const { session, signedOut } = fixtures;
  return { input, sessions: { session, signedOut }, secrets: [session, signedOut] };
}

/** The segment in the URL and the param the handler gets; `freshId` for a fresh one. */
function resolve(value: Segment, freshId: string | null): { inUrl: string; param: string; shown: string } {
  if (value.fresh) return { inUrl: freshId ?? "", param: freshId ?? "", shown: "(fresh)" };
  const { inUrl, param } = pathParam(value.segment, value.raw);
  return { inUrl, param, shown: `${JSON.stringify(preview(param))}${value.raw ? " (sent raw)" : ""}` };
}

describe("hostile input through HTTP: the Revoke forms of access tokens, resource-server credentials and linked clients", () => {
  it(
    `POST /settings/tokens/{id}/revoke answers ${NUM_RUNS} generated requests (seed ${SEED}) with a 303 on this site, a documented code, and a refusal writes nothing`,
    async () => {
      const { tokens, personId } = fixtures;
      const answers = await assertHostileForm(
        "POST /settings/tokens/{id}/revoke",
        inputArb(segment(tokens, 2), fc.constant<Segment>({ fresh: false, segment: "", raw: false })),
        (input, freshId: string | null) => {
          const id = resolve(input.first, freshId);
          return postForm(revokeTokenRoute, { path: `/settings/tokens/${id.inUrl}/revoke`, params: { id: id.param }, shown: `/settings/tokens/{id}/revoke id=${id.shown}`, ...post(input) });
        },
        async (input) => (input.first.fresh ? storeToken(personId) : null),
      );
      expectSuccesses("POST /settings/tokens/{id}/revoke", "303 without error=, a token revoked", answers.get("ok") ?? 0, MIN_TOKENS_REVOKED);
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    `POST /projects/{id}/links/{linkId}/revoke answers ${NUM_RUNS} generated requests (seed ${SEED}) with a 303 on this site, a documented code, and a refusal writes nothing`,
    async () => {
      const { ownProject, othersProject, links, linkToken } = fixtures;
      // The project: mostly the person's own (where a fresh link is); the link: mostly fresh.
      const project = fc.oneof(
        { arbitrary: fc.constant<Segment>({ fresh: false, segment: ownProject, raw: false }), weight: 4 },
        { arbitrary: existing([ownProject, othersProject]), weight: 2 },
      );
      const answers = await assertHostileForm(
        "POST /projects/{id}/links/{linkId}/revoke",
        inputArb(project, segment(links, 3)),
        (input, freshId: string | null) => {
          const id = resolve(input.first, null);
          const linkId = resolve(input.second, freshId);
          return postForm(revokeLinkRoute, {
            path: `/projects/${id.inUrl}/links/${linkId.inUrl}/revoke`,
            params: { id: id.param, linkId: linkId.param },
            shown: `/projects/{id}/links/{linkId}/revoke id=${id.shown} linkId=${linkId.shown}`,
            ...post(input),
          });
        },
        async (input) => (input.second.fresh ? storeLink(ownProject, linkToken) : null),
      );
      expectSuccesses("POST /projects/{id}/links/{linkId}/revoke", "303 without error=, a link revoked", answers.get("ok") ?? 0, MIN_LINKS_REVOKED);
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    `POST /settings/resource-servers/{id}/revoke answers ${NUM_RUNS} generated requests (seed ${SEED}) with a 303 on this site, a documented code, and a refusal writes nothing`,
    async () => {
      const { credentials, personId, ownProject } = fixtures;
      const answers = await assertHostileForm(
        "POST /settings/resource-servers/{id}/revoke",
        inputArb(segment(credentials, 2), fc.constant<Segment>({ fresh: false, segment: "", raw: false })),
        (input, freshId: string | null) => {
          const id = resolve(input.first, freshId);
          return postForm(revokeResourceServerRoute, {
            path: `/settings/resource-servers/${id.inUrl}/revoke`,
            params: { id: id.param },
            shown: `/settings/resource-servers/{id}/revoke id=${id.shown}`,
            ...post(input),
          });
        },
        async (input) => (input.first.fresh ? storeCredential(personId, ownProject) : null),
      );
      expectSuccesses("POST /settings/resource-servers/{id}/revoke", "303 without error=, a credential revoked", answers.get("ok") ?? 0, MIN_CREDENTIALS_REVOKED);
    },
    PROPERTY_TIMEOUT_MS,
  );
});
