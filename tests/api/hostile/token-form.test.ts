import fc from "fast-check";
import { beforeAll, describe, it } from "vitest";
import { POST as createResourceServerRoute } from "@/app/settings/resource-servers/create/route";
import { POST as createTokenRoute } from "@/app/settings/tokens/create/route";
import { MAX_FORM_BODY_BYTES } from "@/lib/api/body";
import { COOKIE_NAME, SITE } from "../../helpers/forms";
import {
  assertHostile,
  authorizationArb,
  clientHeadersArb,
  contentTypeArb,
  credentialArb,
  declaredLengthArb,
  expectSuccesses,
  formBodyArb,
  headerText,
  HOSTILE_ATOMS,
  hostileTextArb,
  jwtShapedArb,
  NUM_RUNS,
  oneBadField,
  PROPERTY_TIMEOUT_MS,
  queryArb,
  SEED,
  segmentArb,
  sendToRoute,
  sometimes,
} from "../../helpers/hostile";
import { signedInPersonWithProjects } from "../../helpers/hostile-forms";

// Hostile input, property-based: generated sessions, origins, form fields, bodies and
// headers thrown at the settings pages' JSON form routes POST /settings/tokens/create and
// POST /settings/resource-servers/create. Seed, number of runs and the documented answers:
// tests/helpers/hostile/.

/** Tokens created (201) of the 1,000 requests, about half the fixed seed's count: a route that refuses everything must fail the property. */
const MIN_CREATED = 25;
/** Credentials created (201) of the 1,000 requests, about half the fixed seed's count. */
const MIN_CREDENTIALS_CREATED = 22;

type Fixtures = { session: string; signedOut: string; ownProject: string; othersProject: string };
let fixtures: Fixtures;

beforeAll(async () => {
  const { session, signedOut, ownProject, othersProject } = await signedInPersonWithProjects();
  fixtures = { session, signedOut, ownProject, othersProject };
}, 120_000);

const text = (max: number) =>
  fc.oneof(
    { arbitrary: fc.string({ minLength: 1, maxLength: 30 }), weight: 4 },
    { arbitrary: fc.constantFrom(max - 1, max, max + 1).map((length) => "n".repeat(length)), weight: 1 },
    { arbitrary: fc.constantFrom(...HOSTILE_ATOMS), weight: 2 },
    { arbitrary: fc.string({ unit: "binary", maxLength: 30 }), weight: 1 },
  );

/** The request around the form's fields: its cookies, origins, body, type, length, Authorization, headers and query. */
function requestArb(fields: fc.Arbitrary<Record<string, string>>) {
  const { session, signedOut, ownProject } = fixtures;
  const cookie = fc.oneof(
    { arbitrary: fc.constant(`${COOKIE_NAME}=${session}`), weight: 10 },
    { arbitrary: fc.constant(undefined), weight: 2 },
    {
      arbitrary: fc.constantFrom(
        `${COOKIE_NAME}=${signedOut}`,
        `initlink_session=${session}`,
        `${COOKIE_NAME}=${session}x`,
        `${COOKIE_NAME}=${session.toUpperCase()}`,
        `${COOKIE_NAME}=`,
        `${COOKIE_NAME}=${"a".repeat(101)}`,
        `other=1; ${COOKIE_NAME}=${session}; ${COOKIE_NAME}=evil`,
        `${COOKIE_NAME}=evil; ${COOKIE_NAME}=${session}`,
        ` ${COOKIE_NAME} = ${session} `,
      ),
      weight: 2,
    },
    { arbitrary: headerText(80).map((value) => `${COOKIE_NAME}=${value}`), weight: 1 },
  );
  const sameOrigin = fc.oneof(
    { arbitrary: fc.record({ origin: fc.constant<string | undefined>(SITE), fetchSite: sometimes(fc.constantFrom("same-origin", "cross-site")) }), weight: 9 },
    {
      arbitrary: fc.record({
        origin: fc.constantFrom(undefined, "null", "https://evil.example", `${SITE}/`, "HTTPS://INITLINK.TEST", `${SITE}:443`, "http://initlink.test", `${SITE}.evil.example`, ""),
        fetchSite: fc.constantFrom(undefined, "same-origin", "same-site", "cross-site", "none", "SAME-ORIGIN"),
      }),
      weight: 3,
    },
    { arbitrary: fc.record({ origin: sometimes(headerText(40), 1), fetchSite: sometimes(headerText(20), 1) }), weight: 1 },
  );
  return fc.record({
    cookie,
    sameOrigin,
    body: formBodyArb(fields, MAX_FORM_BODY_BYTES),
    contentType: fc.oneof(
      { arbitrary: fc.constantFrom("application/x-www-form-urlencoded", "application/x-www-form-urlencoded; charset=UTF-8", "APPLICATION/X-WWW-FORM-URLENCODED"), weight: 6 },
      { arbitrary: contentTypeArb(), weight: 2 },
    ),
    declaredLength: declaredLengthArb(),
    authorization: sometimes(authorizationArb(credentialArb([session, "ilat_AudKZwucI6wsqZhncOHqAlRHpNFbChlRx9Cx4zXg4jE"], jwtShapedArb(["kid"], [ownProject])))),
    headers: clientHeadersArb().map((headers) => headers.filter(([name]) => name !== "cookie")),
    query: queryArb(),
  });
}

type Generated = ReturnType<typeof requestArb> extends fc.Arbitrary<infer R> ? R : never;

/** Posts a generated request to the form route at `path`. */
function send(route: typeof createTokenRoute, path: string) {
  const { session, signedOut } = fixtures;
  return ({ cookie: cookieValue, sameOrigin: { origin, fetchSite }, body, contentType, declaredLength, authorization, headers, query }: Generated) =>
    sendToRoute(route, {
      method: "POST",
      path,
      query,
      params: {},
      headers,
      extra: { cookie: cookieValue, origin, "sec-fetch-site": fetchSite, "content-type": contentType, "content-length": declaredLength, authorization },
      body,
      secrets: [session, signedOut],
    });
}

describe("hostile input: POST /settings/tokens/create", () => {
  it(
    `answers ${NUM_RUNS} generated requests (seed ${SEED}) as documented, and a refusal writes nothing`,
    async () => {
      const { ownProject, othersProject } = fixtures;
      const randomFields = fc.record(
        {
          name: text(100),
          scope: fc.oneof({ arbitrary: fc.constantFrom("all", ownProject, othersProject), weight: 4 }, { arbitrary: segmentArb([ownProject, othersProject, "all"]), weight: 2 }),
          lifetime: fc.oneof({ arbitrary: fc.constantFrom("7", "30", "90", "365", "never"), weight: 4 }, { arbitrary: fc.constantFrom("", "0", "-7", "7.0", " 7", "Never", "1000", "1e3", "\u0000"), weight: 1 }),
          extra: fc.string({ maxLength: 10 }),
        },
        { requiredKeys: [] },
      );
      const fields = fc.oneof(
        // Valid fields with one or two made hostile: what reaches the lookup and the insert.
        { arbitrary: oneBadField({ name: "laptop CLI", scope: "all", lifetime: "30" }, hostileTextArb()), weight: 1 },
        { arbitrary: oneBadField({ name: "ci", scope: ownProject, lifetime: "never" }, hostileTextArb()), weight: 1 },
        { arbitrary: randomFields, weight: 2 },
      ) as fc.Arbitrary<Record<string, string>>;
      const answered = await assertHostile("POST /settings/tokens/create", requestArb(fields), send(createTokenRoute, "/settings/tokens/create"));
      expectSuccesses("POST /settings/tokens/create", "201, a token created", answered.get(201) ?? 0, MIN_CREATED);
    },
    PROPERTY_TIMEOUT_MS,
  );
});

describe("hostile input: POST /settings/resource-servers/create", () => {
  it(
    `answers ${NUM_RUNS} generated requests (seed ${SEED}) as documented, and a refusal writes nothing`,
    async () => {
      const { ownProject, othersProject } = fixtures;
      // The ids of the projects, separated by spaces: the person's, another's, both, repeated, many, or hostile text.
      const projects = fc.oneof(
        { arbitrary: fc.constantFrom(ownProject, `${ownProject} ${ownProject}`, ` ${ownProject} `, othersProject, `${ownProject} ${othersProject}`), weight: 4 },
        { arbitrary: fc.constantFrom(100, 101, 200).map((count) => Array.from({ length: count }, () => ownProject).join(" ")), weight: 1 },
        { arbitrary: fc.array(segmentArb([ownProject, othersProject]), { maxLength: 4 }).map((ids) => ids.join(" ")), weight: 2 },
      );
      const randomFields = fc.record({ name: text(100), projects, extra: fc.string({ maxLength: 10 }) }, { requiredKeys: [] });
      const fields = fc.oneof(
        { arbitrary: oneBadField({ name: "payments API", projects: ownProject }, hostileTextArb()), weight: 1 },
        { arbitrary: randomFields, weight: 2 },
      ) as fc.Arbitrary<Record<string, string>>;
      const answered = await assertHostile("POST /settings/resource-servers/create", requestArb(fields), send(createResourceServerRoute, "/settings/resource-servers/create"));
      expectSuccesses("POST /settings/resource-servers/create", "201, a credential created", answered.get(201) ?? 0, MIN_CREDENTIALS_CREATED);
    },
    PROPERTY_TIMEOUT_MS,
  );
});
