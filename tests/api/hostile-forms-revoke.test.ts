import fc from "fast-check";
import { beforeAll, describe, it } from "vitest";
import { POST as revokeLinkRoute } from "@/app/projects/[id]/links/[linkId]/revoke/route";
import { POST as revokeTokenRoute } from "@/app/settings/tokens/[id]/revoke/route";
import { db } from "@/lib/db";
import { MAX_FORM_BODY_BYTES } from "@/lib/http/body";
import { hashSecret, randomId, randomSecret } from "@/lib/secrets";
import { randomIv } from "../helpers/links";
import { newAccount, sessionTokenOf, signIn, signOut, SITE } from "../helpers/forms";
import {
  assertHostileForm,
  buildRequest,
  clientHeadersArb,
  declaredLengthArb,
  describeBody,
  describeHeaders,
  fillCookie,
  formBodySpecArb,
  formContentTypeArb,
  formOriginArb,
  formPairsArb,
  HOSTILE_ATOMS,
  hostileTextArb,
  NUM_RUNS,
  pathParam,
  preview,
  PROPERTY_TIMEOUT_MS,
  requestBody,
  returnToQueryArb,
  SEED,
  segmentArb,
  sessionCookieArb,
  sometimes,
  type BodySpec,
  type HeaderList,
  type OriginHeaders,
} from "../helpers/hostile";

// Hostile input through HTTP, property-based (issue 5, second bullet): generated token, project
// and link ids, bodies, content types, origins, cookies and headers thrown at the Revoke buttons
// of the settings page (access tokens) and of the project page (linked clients). Seed, number of
// runs, each form's documented codes and the checks: tests/helpers/hostile.ts (FORM_DOCUMENTED,
// checkFormAnswer).

const PASSWORD = "correct horse battery";

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
};
let fixtures: Fixtures;

async function storeToken(userId: string, data: { projectId?: string; expiresAt?: Date; revokedAt?: Date } = {}): Promise<string> {
  const prisma = await db();
  const id = randomId();
  await prisma.accessToken.create({ data: { id, tokenHash: hashSecret(randomSecret("ilat_")), name: "hostile", userId, createdAt: new Date(), ...data } });
  return id;
}

async function storeLink(projectId: string, accessTokenId: string, revokedAt?: Date): Promise<string> {
  const prisma = await db();
  const id = randomId();
  await prisma.projectLink.create({ data: { id, projectId, iv: randomIv(), accessTokenId, userAgent: "acme-cli/2.0", createdAt: new Date(), revokedAt } });
  return id;
}

beforeAll(async () => {
  const person = await newAccount();
  const other = await newAccount();
  const second = sessionTokenOf(await signIn({ email: person.email, password: PASSWORD }));
  if (second === null) throw new Error("sign-in failed");
  await signOut(second);
  const prisma = await db();
  const [personId, otherId] = await Promise.all([person.email, other.email].map(async (email) => (await prisma.user.findUniqueOrThrow({ where: { email } })).id));
  // Projects and links made directly: no key is needed to revoke, and none is made in the background.
  const ownProject = randomId();
  const othersProject = randomId();
  await prisma.project.create({ data: { id: ownProject, name: "Mine", ownerId: personId, createdAt: new Date() } });
  await prisma.project.create({ data: { id: othersProject, name: "Theirs", ownerId: otherId, createdAt: new Date() } });
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
  fixtures = { session: person.token, signedOut: second, personId, ownProject, othersProject, linkToken, tokens, links };
}, 120_000);

/** A path segment: a fresh row of the person's (made just before the request; a success revokes it), or a segment. */
type Segment = { fresh: true } | { fresh: false; segment: string; raw: boolean };

type RevokeInput = {
  first: Segment;
  second: Segment;
  origin: OriginHeaders;
  cookie: string | undefined;
  contentType: string | undefined;
  declaredLength: string | undefined;
  body: BodySpec;
  headers: HeaderList;
  query: string;
};

const existing = (known: string[]): fc.Arbitrary<Segment> => fc.record({ fresh: fc.constant<false>(false), segment: segmentArb(known), raw: fc.boolean() });
const segment = (known: string[], freshWeight: number): fc.Arbitrary<Segment> =>
  fc.oneof({ arbitrary: fc.constant<Segment>({ fresh: true }), weight: freshWeight }, { arbitrary: existing(known), weight: 2 });

function inputArb(first: fc.Arbitrary<Segment>, second: fc.Arbitrary<Segment>): fc.Arbitrary<RevokeInput> {
  return fc.record({
    first,
    second,
    origin: formOriginArb(SITE),
    cookie: sessionCookieArb(),
    contentType: formContentTypeArb(),
    declaredLength: declaredLengthArb(),
    body: formBodySpecArb(formPairsArb({ extra: sometimes(fc.oneof(fc.constantFrom(...HOSTILE_ATOMS), hostileTextArb())) }), MAX_FORM_BODY_BYTES, "x="),
    headers: clientHeadersArb().map((headers) => headers.filter(([name]) => name !== "cookie")),
    query: returnToQueryArb(),
  });
}

function headerList(input: RevokeInput): HeaderList {
  const { origin, cookie, contentType, declaredLength, headers } = input;
  const list: HeaderList = [...headers];
  if (cookie !== undefined) list.push(["cookie", fillCookie(cookie, { session: fixtures.session, signedOut: fixtures.signedOut })]);
  if (origin.origin !== undefined) list.push(["origin", origin.origin]);
  if (origin.fetchSite !== undefined) list.push(["sec-fetch-site", origin.fetchSite]);
  if (contentType !== undefined) list.push(["content-type", contentType]);
  if (declaredLength !== undefined) list.push(["content-length", declaredLength]);
  return list;
}

/** The segment in the URL and the param the handler gets; `freshId` for a fresh one. */
function resolve(value: Segment, freshId: string | null): { inUrl: string; param: string; shown: string } {
  if (value.fresh) return { inUrl: freshId ?? "", param: freshId ?? "", shown: "(fresh)" };
  const { inUrl, param } = pathParam(value.segment, value.raw);
  return { inUrl, param, shown: `${JSON.stringify(preview(param))}${value.raw ? " (sent raw)" : ""}` };
}

describe("hostile input through HTTP: the Revoke forms of access tokens and linked clients", () => {
  it(
    `POST /settings/tokens/{id}/revoke answers ${NUM_RUNS} generated requests (seed ${SEED}) with a 303 on this site, a documented code, and a refusal writes nothing`,
    async () => {
      const { tokens, personId } = fixtures;
      await assertHostileForm(
        "POST /settings/tokens/{id}/revoke",
        inputArb(segment(tokens, 2), fc.constant<Segment>({ fresh: false, segment: "", raw: false })),
        async (input, freshId: string | null) => {
          const list = headerList(input);
          const id = resolve(input.first, freshId);
          const request = buildRequest("POST", `http://localhost:3000/settings/tokens/${id.inUrl}/revoke${input.query}`, list, requestBody(input.body));
          const response = await revokeTokenRoute(request, { params: Promise.resolve({ id: id.param }) });
          return {
            request,
            response,
            description: `POST /settings/tokens/{id}/revoke id=${id.shown}${preview(input.query, 120)}; ${describeHeaders(list)}; body ${describeBody(input.body)}`,
            secrets: [fixtures.session, fixtures.signedOut],
          };
        },
        async (input) => (input.first.fresh ? storeToken(personId) : null),
      );
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
      await assertHostileForm(
        "POST /projects/{id}/links/{linkId}/revoke",
        inputArb(project, segment(links, 3)),
        async (input, freshId: string | null) => {
          const list = headerList(input);
          const id = resolve(input.first, null);
          const linkId = resolve(input.second, freshId);
          const request = buildRequest("POST", `http://localhost:3000/projects/${id.inUrl}/links/${linkId.inUrl}/revoke${input.query}`, list, requestBody(input.body));
          const response = await revokeLinkRoute(request, { params: Promise.resolve({ id: id.param, linkId: linkId.param }) });
          return {
            request,
            response,
            description: `POST /projects/{id}/links/{linkId}/revoke id=${id.shown} linkId=${linkId.shown}${preview(input.query, 120)}; ${describeHeaders(list)}; body ${describeBody(input.body)}`,
            secrets: [fixtures.session, fixtures.signedOut],
          };
        },
        async (input) => (input.second.fresh ? storeLink(ownProject, linkToken) : null),
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});
