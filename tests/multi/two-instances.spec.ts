import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import { readdirSync } from "node:fs";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { createLocalJWKSet, jwtVerify } from "jose";
import pg from "pg";
import { MULTI_PORTS, scratchDatabase } from "../../playwright.config";
import { BALANCER, INSTANCE_A, INSTANCE_B, SHARED_CREATE_INIT_LIMIT } from "../../playwright.multi.config";
import { approveAsNewPerson, over, pollAtItsPace } from "../e2e/flow";
import { createInit, createLink, pickUpToken } from "../helpers/journey.mjs";

// Consecutive requests of one flow land on different instances; nothing may depend on which.

// The load balancer at APP_URL: forwards everything to the instance the test points it at.
let target = new URL(INSTANCE_A);
const balancer = http.createServer((incoming, outgoing) => {
  const forwarded = http.request(
    { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
    (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    },
  );
  forwarded.on("error", () => outgoing.destroy());
  incoming.pipe(forwarded);
});
test.beforeAll(() => new Promise<void>((resolve) => balancer.listen(Number(new URL(BALANCER).port), "127.0.0.1", resolve)));
test.afterAll(() => new Promise<void>((resolve) => balancer.close(() => resolve())));

test("one flow across two instances: init on A, approval on B, pickup on B, link on A, JWKS from B", async ({ page, request }) => {
  // The person's browser reaches B through the balancer.
  target = new URL(INSTANCE_B);

  const init = await createInit(over(request, INSTANCE_A), { sender: "@acme/cli" });
  await approveAsNewPerson(page, init);

  // Anyone's poll on A; the person's page on B shares its clock, so it may be told to wait.
  const status = await pollAtItsPace(() => request.get(`${INSTANCE_A}/api/init/${init.id}`));
  expect(await status.json()).toMatchObject({ status: "done", project_id: init.id });
  const pickup = await pickUpToken(over(request, INSTANCE_B), init);
  expect(pickup.access_token).toMatch(/^ilat_/);
  // The pickup happened on B: A must not hand the token out again. The poll clock is shared
  // too: A slows the secret's holder down until an interval has passed since B's pickup.
  const early = await request.get(`${INSTANCE_A}/api/init/${init.id}`, { headers: { authorization: `Bearer ${init.secret}` } });
  expect(early.status()).toBe(429);
  const again = await pollAtItsPace(() => request.get(`${INSTANCE_A}/api/init/${init.id}`, { headers: { authorization: `Bearer ${init.secret}` } }));
  expect(again.status()).toBe(200);
  expect((await again.json()).access_token).toBeUndefined();

  const iv = "0123456789abcdef0123456789abcdef";
  const link = await createLink(over(request, INSTANCE_A), init.id, pickup.access_token, { iv });
  expect(link.success).toBe(true);
  // The retry reaches B and gets the same link: idempotency lives in the database.
  const retry = await createLink(over(request, INSTANCE_B), init.id, pickup.access_token, { iv });
  expect(retry.link_id).toBe(link.link_id);

  const jwks = await (await request.get(`${INSTANCE_B}/.well-known/jwks.json`)).json();
  const { payload } = await jwtVerify(link.bearer.replace(/^Bearer /, ""), createLocalJWKSet(jwks), {
    issuer: BALANCER,
    audience: `${BALANCER}/api/projects/${init.id}`,
    algorithms: ["EdDSA"],
  });
  expect(payload.sub).toBe(link.link_id);
  const project = await request.get(`${INSTANCE_B}/api/projects/${init.id}`, { headers: { authorization: link.bearer } });
  expect(project.status()).toBe(200);
});

// On PostgreSQL a change reaches the other instances by NOTIFY: the held request on A can only
// end before its 60 s wait through the notice of B's approval (the test's timeout is shorter), and
// the event stream on A (which reads its init again only every 60 s) gets its done event only
// through it too.
test("a request held on A with Prefer: wait, and an event stream on A, end when the init is approved on B", async ({ page, request }) => {
  test.setTimeout(50_000);
  target = new URL(INSTANCE_B);
  const init = await createInit(over(request, INSTANCE_A), { sender: "@acme/waiting" });
  const held = request.get(`${INSTANCE_A}/api/init/${init.id}`, { headers: { prefer: "wait=60", "user-agent": "waiter-a" }, timeout: 0 });
  const streamed = request.get(`${INSTANCE_A}/api/init/${init.id}/events`, { timeout: 0 });
  await approveAsNewPerson(page, init);
  const answer = await held;
  expect(answer.headers()["preference-applied"]).toBe("wait=60");
  expect(await answer.json()).toMatchObject({ status: "done", project_id: init.id });
  expect(await (await streamed).text()).toMatch(/^retry: 5000\n\nid: pending\ndata: \{[^\n]*\}\n\nid: done\ndata: \{[^\n]*"status":"done"[^\n]*\}\n\n$/);
});

test("the Create Init limit is shared: requests alternating between the instances hit one limit", async ({ request }) => {
  // Fixed one-minute windows: start well inside one.
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 15_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
  const statuses: number[] = [];
  for (let i = 0; i < SHARED_CREATE_INIT_LIMIT * 2; i++) {
    const instance = i % 2 === 0 ? INSTANCE_A : INSTANCE_B;
    statuses.push((await request.post(`${instance}/api/init`, { data: { sender: "@acme/limit" } })).status());
  }
  // Earlier tests may have used part of this window's allowance from the same address.
  const accepted = statuses.filter((status) => status === 201).length;
  expect(accepted).toBeLessThanOrEqual(SHARED_CREATE_INIT_LIMIT);
  expect(statuses.slice(accepted).every((status) => status === 429)).toBe(true);
  expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(SHARED_CREATE_INIT_LIMIT);
});

function startInstance(port: number, databaseUrl: string): ChildProcess {
  return spawn(process.execPath, ["scripts/start.mjs"], {
    env: { ...process.env, PORT: String(port), HOSTNAME: "127.0.0.1", APP_URL: `http://127.0.0.1:${port}`, DATABASE_URL: databaseUrl, MASTER_KEY: "KioqKioqKioqKioqKioqKioqKioqKioqKioqKioqKio=" },
    stdio: "ignore",
  });
}

async function untilLive(request: APIRequestContext, url: string) {
  for (let attempt = 0; attempt < 240; attempt++) {
    try {
      if ((await request.get(`${url}/api/live`)).ok()) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not start`);
}

test("two instances starting at once on an empty database apply each migration once and make one signing key", async ({ request }) => {
  const databaseUrl = scratchDatabase("race");
  const url = new URL(databaseUrl);
  const name = url.pathname.slice(1);
  const admin = new pg.Client({ connectionString: Object.assign(new URL(databaseUrl), { pathname: "/postgres" }).toString() });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${name}"`);
  const [portA, portB] = MULTI_PORTS.race;
  const instances = [startInstance(portA, databaseUrl), startInstance(portB, databaseUrl)];
  try {
    await Promise.all([untilLive(request, `http://127.0.0.1:${portA}`), untilLive(request, `http://127.0.0.1:${portB}`)]);
    const keysA = await (await request.get(`http://127.0.0.1:${portA}/.well-known/jwks.json`)).json();
    const keysB = await (await request.get(`http://127.0.0.1:${portB}/.well-known/jwks.json`)).json();
    expect(keysA.keys).toHaveLength(1);
    expect(keysB).toEqual(keysA);
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const migrations = await db.query('SELECT "migration_name", count(*)::int AS times FROM "_prisma_migrations" GROUP BY "migration_name" ORDER BY 1');
    const expected = readdirSync("prisma/postgresql/migrations", { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
    expect(migrations.rows).toEqual(expected.map((migration) => ({ migration_name: migration, times: 1 })));
    expect((await db.query('SELECT count(*)::int AS keys FROM "SigningKey"')).rows[0].keys).toBe(1);
    await db.end();
  } finally {
    for (const instance of instances) instance.kill("SIGTERM");
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  }
});
