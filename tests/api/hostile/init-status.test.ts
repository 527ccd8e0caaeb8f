import fc from "fast-check";
import { beforeAll, describe, it } from "vitest";
import { GET as initStatusRoute } from "@/app/api/init/[id]/route";
import { db } from "@/lib/database/db";
import { createdInit, getInitStatus } from "../../helpers/api";
import { approve, deny, newAccount } from "../../helpers/forms";
import {
  assertHostile,
  authorizationArb,
  clientHeadersArb,
  credentialArb,
  encodeSegment,
  expectSuccesses,
  jwtShapedArb,
  NUM_RUNS,
  preview,
  PROPERTY_TIMEOUT_MS,
  queryArb,
  SEED,
  segmentArb,
  sendToRoute,
} from "../../helpers/hostile";

// Hostile input, property-based: generated ids, Authorization values and headers
// thrown at GET /api/init/{id}, on inits in every state. Seed, number of runs and the documented
// answers: tests/helpers/hostile/.

/**
 * Status reads (200) of the 1,000 requests: the fixed seed gets about 150, 70 of them first polls
 * (a 200 however fast the machine). A route that refuses everything must fail the property.
 */
const MIN_READ = 50;

/**
 * Pending inits only polled as their own (with the secret, or with none). The first poll of each
 * init by each kind of poller is a 200 whatever the time (later ones within INIT_INTERVAL_MS
 * are slow_down), so they give the property a count of successes that does not depend on speed.
 */
const POLLED_INITS = 30;

type Fixtures = { ids: string[]; secrets: string[]; accessToken: string; polled: { id: string; secret: string }[] };
let fixtures: Fixtures;

beforeAll(async () => {
  const account = await newAccount();
  const pending = await createdInit({ sender: "@acme/cli" });
  // Done, with the access token collected; done, not yet collected; denied; expired.
  const collected = await createdInit({ sender: "@acme/cli", sender_device: "laptop" });
  const uncollected = await createdInit({ sender: "@acme/cli" });
  const denied = await createdInit({ sender: "@acme/cli" });
  const expired = await createdInit({ sender: "@acme/cli" });
  const polled: { id: string; secret: string }[] = [];
  for (let index = 0; index < POLLED_INITS; index += 1) polled.push(await createdInit({ sender: "@acme/cli" }));
  for (const init of [collected, uncollected]) {
    const approval = await approve(init.id, account.token, { project: "new", name: "Hostile", code_confirmed: "yes" });
    if (approval.headers.get("location")?.includes("error")) throw new Error(`approval failed: ${approval.headers.get("location")}`);
  }
  await deny(denied.id, account.token);
  const status = await (await getInitStatus(collected.id, { authorization: `Bearer ${collected.secret}` })).json();
  if (typeof status.access_token !== "string") throw new Error(`no access token: ${JSON.stringify(status)}`);
  const prisma = await db();
  await prisma.init.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
  fixtures = {
    ids: [pending.id, collected.id, uncollected.id, denied.id, expired.id],
    secrets: [pending.secret, collected.secret, uncollected.secret, denied.secret, expired.secret],
    accessToken: status.access_token,
    polled,
  };
}, 120_000);

describe("hostile input: GET /api/init/{id}", () => {
  it(
    `answers ${NUM_RUNS} generated requests (seed ${SEED}) as documented, and a refusal writes nothing`,
    async () => {
      const { ids, secrets, accessToken, polled } = fixtures;
      const jwtish = jwtShapedArb(["kid"], ids);
      // Two times in three an init with its own secret (or none, or a variant of it), to reach
      // the answers past the secret check: the status, the token pickup and slow_down.
      const idAndAuthorization = fc.oneof(
        fc.record({ id: segmentArb(ids), authorization: authorizationArb(credentialArb([...secrets, accessToken], jwtish)) }),
        fc.integer({ min: 0, max: ids.length - 1 }).chain((index) =>
          fc.record({
            id: fc.constant(ids[index]),
            authorization: fc.oneof(fc.constant(undefined), fc.constant(`Bearer ${secrets[index]}`), authorizationArb(credentialArb([secrets[index]], jwtish))),
          }),
        ),
        // A pending init polled as its own (with its secret, or as anyone): mostly answered 200.
        fc.constantFrom(...polled).chain(({ id, secret }) => fc.record({ id: fc.constant(id), authorization: fc.constantFrom(undefined, `Bearer ${secret}`) })),
      );
      const input = fc.record({ target: idAndAuthorization, headers: clientHeadersArb(), query: queryArb() });
      const answered = await assertHostile("GET /api/init/{id}", input, ({ target: { id, authorization }, headers, query }) =>
        sendToRoute(initStatusRoute, { method: "GET", path: `/api/init/${encodeSegment(id)}`, query, params: { id }, headers, extra: { authorization }, shown: `/api/init/{id} id=${JSON.stringify(preview(id))}` }),
      );
      expectSuccesses("GET /api/init/{id}", "200, the init's status", answered.get(200) ?? 0, MIN_READ);
    },
    PROPERTY_TIMEOUT_MS,
  );
});
