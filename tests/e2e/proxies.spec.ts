import { randomBytes } from "node:crypto";
import { createServer, request as httpRequest, type Server } from "node:http";
import { expect, test } from "@playwright/test";
import { PROXIES_PORTS, scratchDatabase } from "../../playwright.config";
import { createInit, signUp, type CreatedInit, type Send } from "../helpers/journey.mjs";
import { newEmail, sendFrom, signUpFromInitPage } from "./flow";
import { startOwnServer, type OwnServer } from "./own-server";

// Addresses and proxies against the production build: one server of its own that
// trusts one proxy (127.0.0.1, run here), and clients from other loopback addresses (the whole
// 127.0.0.0/8 answers) and from this machine's other interface, which is not loopback.

const PORT = PROXIES_PORTS.server;
const PROXY_PORT = PROXIES_PORTS.proxy;
const SERVER = `http://127.0.0.1:${PORT}`;
const PROXY_ADDRESS = "127.0.0.1";
/** This machine's address on its network interface (not loopback); see docs/testing.md. */
const OUTSIDE_ADDRESS = process.env.E2E_OUTSIDE_ADDRESS ?? "192.0.2.2";

let server: OwnServer;
let proxy: Server;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  proxy = forwardingProxy();
  await new Promise<void>((resolve) => proxy.listen(PROXY_PORT, PROXY_ADDRESS, resolve));
  server = await startOwnServer(PORT, {
    APP_URL: SERVER,
    DATABASE_URL: scratchDatabase("proxies"),
    MASTER_KEY: randomBytes(32).toString("base64"),
    WEB_CONCURRENCY: "1",
    // Polls a second apart, so that a client's pace is seen in a few seconds.
    INIT_INTERVAL_MS: "1000",
    // A room of 20: two places per address.
    WAITING_PER_PROCESS: "20",
    // An existing deployment's hop count stays set beside the list that now decides.
    TRUST_PROXY_HOPS: "1",
    TRUSTED_PROXIES: PROXY_ADDRESS,
  });
});

test.afterAll(() => {
  proxy.close();
  server.stop();
});

/** A reverse proxy as balancers are: it appends the address and port it saw to X-Forwarded-For. */
function forwardingProxy(): Server {
  return createServer((incoming, outgoing) => {
    const seen = `${incoming.socket.remoteAddress}:${incoming.socket.remotePort}`;
    const forwarded = incoming.headers["x-forwarded-for"];
    const headers = { ...incoming.headers, "x-forwarded-for": forwarded ? `${forwarded}, ${seen}` : seen };
    const upstream = httpRequest({ host: "127.0.0.1", port: PORT, localAddress: PROXY_ADDRESS, method: incoming.method, path: incoming.url, headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    upstream.on("error", () => outgoing.destroy());
    outgoing.on("close", () => upstream.destroy());
    incoming.pipe(upstream);
  });
}

/** The journey's transport from `localAddress`, straight to the server's port or through the proxy. */
const from = (localAddress: string, via: "direct" | "proxy" = "direct"): Send => sendFrom(via === "direct" ? SERVER : `http://127.0.0.1:${PROXY_PORT}`, localAddress);

const createInitAs = (send: Send, headers: Record<string, string>) => send("POST", "/api/init", JSON.stringify({ sender: "@acme/cli" }), { "content-type": "application/json", ...headers });

// Address spoofing: with a hop count, 40 Create Inits with 40 forged addresses all got 201.
test("a client reaching the port directly cannot pick its address with X-Forwarded-For", async () => {
  // The limit counts in clock minutes: 40 requests that straddle a minute's end start a second
  // count, so such a round is run again from another address (the second fits in one minute).
  const minute = () => Math.floor(Date.now() / 60_000);
  let statuses: number[] = [];
  for (const address of ["127.0.0.2", "127.0.0.12"]) {
    const direct = from(address);
    const began = minute();
    statuses = [];
    for (let attempt = 0; attempt < 40; attempt++) statuses.push((await createInitAs(direct, { "x-forwarded-for": `198.51.100.${attempt + 1}` })).status);
    if (minute() === began) break;
  }
  expect(statuses.filter((status) => status === 201)).toHaveLength(30);
  expect(statuses.slice(30)).toEqual(Array(10).fill(429));
  expect(server.output()).toContain("TRUST_PROXY_HOPS is ignored");
});

test("behind the trusted proxy the address is the one it saw, port and all, not one the client wrote", async () => {
  // The page shows where a request came from to a signed-in account only (its URL may leak).
  const viewer = await signUp(from("127.0.0.4"), { site: SERVER, email: newEmail() });
  const asViewer = { cookie: viewer.cookie };
  const init = await createInit(from("127.0.0.3", "proxy"), { sender: "@acme/cli" }, { "x-forwarded-for": "6.6.6.6" });
  const page = await from("127.0.0.4")("GET", `/init/${init.id}`, undefined, asViewer);
  expect(page.text).toMatch(/Address<\/dt><dd>127\.0\.0\.3</);
  // Proximity: the viewer (127.0.0.4) is on the network the client came from (127.0.0.3), as the proxy said.
  expect(page.text).toContain("(from your network)");
  const forged = await createInit(from("127.0.0.3"), { sender: "@acme/cli" }, { "x-forwarded-for": "6.6.6.6" });
  expect((await from("127.0.0.4")("GET", `/init/${forged.id}`, undefined, asViewer)).text).toMatch(/Address<\/dt><dd>127\.0\.0\.3</);
});

// Proximity, from loopback addresses of two networks: 127.0.9.0/24 is not the
// browser's (127.0.0.1), 127.0.0.0/24.
test("from another network the page warns naming both addresses: no Approve for a client that shows no code, the typed code for one that does", async ({ page }) => {
  const elsewhere = from("127.0.9.3");
  const noCode = await createInit(elsewhere, { sender: "envsync-cli", sender_ip: "192.168.1.20" });
  await page.goto(noCode.redirect_url);
  await signUpFromInitPage(page, newEmail());
  const warning = page.getByRole("region", { name: "Not from your network" });
  await expect(warning).toContainText("came from 127.0.9.3, this browser is at 127.0.0.1");
  await expect(warning).toContainText("is phishing: deny it");
  await expect(warning).toContainText("cannot be approved from here");
  await expect(page.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await expect(page.getByRole("checkbox")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Deny" })).toBeVisible();
  // The client's private address is labelled as such, not flagged.
  const facts = page.getByRole("region", { name: "Who is asking" });
  await expect(facts).toContainText("reports 192.168.1.20 (private)");
  await expect(facts.locator(".flag")).toHaveCount(0);
  await page.screenshot({ path: "test-results/screenshots/init-elsewhere-no-code.png", fullPage: true });

  const shown = await createInit(elsewhere, { sender: "@acme/cli", user_code_shown: true });
  await page.goto(shown.redirect_url);
  await expect(page.getByRole("region", { name: "Not from your network" })).toContainText("Type the code your terminal shows, never one sent to you");
  await expect(page.getByRole("checkbox")).toHaveCount(0);
  await page.getByLabel("Code shown in your terminal").fill(shown.user_code);
  await page.getByLabel("Access for").selectOption("1d");
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("heading", { name: "Request approved" })).toBeVisible();
  // The client learns the lifetime chosen, and the activity shows it.
  const pickup = JSON.parse((await elsewhere("GET", `/api/init/${shown.id}`, undefined, { authorization: `Bearer ${shown.secret}` })).text);
  expect(pickup.access_token_expires_in).toBeGreaterThan(86_390);
  expect(pickup.access_token_expires_in).toBeLessThanOrEqual(86_400);
  await page.goto(`${SERVER}/activity`);
  await expect(page.getByText("Approved by you, access for 1 day")).toBeVisible();
});

test("metrics answer a loopback caller, never one that forged 127.0.0.1", async () => {
  expect((await from("127.0.0.2")("GET", "/api/metrics")).status).toBe(200);
  expect((await from(OUTSIDE_ADDRESS)("GET", "/api/metrics", undefined, { "x-forwarded-for": "127.0.0.1" })).status).toBe(404);
  expect((await from(OUTSIDE_ADDRESS, "proxy")("GET", "/api/metrics", undefined, { "x-forwarded-for": "127.0.0.1" })).status).toBe(404);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls the init's status without its secret every `everyMs`, `times` times; the statuses in order. */
async function pollEvery(send: Send, init: CreatedInit, everyMs: number, times: number, headers: Record<string, string> = {}): Promise<number[]> {
  const statuses: number[] = [];
  for (let poll = 0; poll < times; poll++) {
    if (poll > 0) await sleep(everyMs);
    statuses.push((await send("GET", `/api/init/${init.id}`, undefined, headers)).status);
  }
  return statuses;
}

// Another address polling every 3.8 s (of 5) once made a 5-second poller's every request a 429.
test("another address polling too fast never slows down a client that keeps time", async () => {
  const init = await createInit(from("127.0.0.5"));
  const [client, stranger] = await Promise.all([pollEvery(from("127.0.0.5"), init, 1000, 8), pollEvery(from("127.0.0.6"), init, 800, 10)]);
  expect(client).toEqual(Array(8).fill(200));
  expect(stranger).toEqual(Array(10).fill(200));
  // Still RFC 8628 §3.5 for a reader that itself polls too fast: at once after its last poll.
  expect((await from("127.0.0.6")("GET", `/api/init/${init.id}`)).status).toBe(429);
});

// With the page's event stream blocked, its polling once shared the clock of a client
// that sends no secret, and the original platform's CLI got slow_down at its third poll and gave up.
test("the init page's polling, its event stream blocked, never slows down a client on the same machine", async ({ page }) => {
  const init = await createInit(from(PROXY_ADDRESS), { sender: "envsync-cli" });
  await page.route("**/events", (route) => route.abort());
  await page.goto(init.redirect_url);
  await signUpFromInitPage(page, newEmail());
  await page.waitForRequest((request) => request.url().endsWith(`/api/init/${init.id}`));
  const cli = await pollEvery(from(PROXY_ADDRESS), init, 1000, 8, { "user-agent": "envsync-cli/1.4.2" });
  expect(cli).toEqual(Array(8).fill(200));
});

// A signed-out page cannot decide, and its polls, from the CLI's address and without the secret,
// shared that CLI's poll clock: once its stream failed (or ended, after 5 minutes) the original
// platform's CLI, polling every 10 s, got slow_down and gave up. It stops and offers a reload.
test("a signed-out init page whose event stream fails stops following, never polls, and never slows down a client on the same machine", async ({ page }) => {
  const init = await createInit(from(PROXY_ADDRESS), { sender: "envsync-cli" });
  const polls: string[] = [];
  page.on("request", (request) => {
    if (request.url().endsWith(`/api/init/${init.id}`)) polls.push(request.method());
  });
  await page.route("**/events", (route) => route.abort());
  const failed = page.waitForEvent("requestfailed", (request) => request.url().endsWith(`/api/init/${init.id}/events`));
  await page.goto(init.redirect_url);
  await failed;
  const cli = await pollEvery(from(PROXY_ADDRESS), init, 1000, 8, { "user-agent": "envsync-cli/1.4.2" });
  expect(cli).toEqual(Array(8).fill(200));
  expect(polls).toEqual([]);
  await expect(page.getByRole("status")).toContainText("no longer updated");
  await page.screenshot({ path: "test-results/screenshots/init-signed-out-stopped.png", fullPage: true });
  // A reload follows the init again.
  await page.unroute("**/events");
  const stream = page.waitForResponse((response) => response.url().endsWith(`/api/init/${init.id}/events`));
  await page.getByRole("button", { name: "Reload" }).click();
  expect((await stream).headers()["content-type"]).toContain("text/event-stream");
  await expect(page.getByRole("status")).toContainText("Waiting for your decision");
  await expect(page.getByRole("status")).not.toContainText("no longer updated");
  expect(polls).toEqual([]);
});

/** Opens the init's event stream from `localAddress`: its status, and close() once it was answered 200. */
function openStream(localAddress: string, init: CreatedInit): Promise<{ status: number; close: () => void }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: "127.0.0.1", port: PORT, localAddress, path: `/api/init/${init.id}/events` }, (response) => {
      resolve({ status: response.statusCode ?? 0, close: () => request.destroy() });
      response.resume();
    });
    request.on("error", reject);
    request.end();
  });
}

// One address's streams once filled the waiting room, and everyone else got 503.
test("one address holds at most its tenth of the waiting room, another address still gets a stream, and a stream whose client left frees its place", async () => {
  const hog = "127.0.0.7";
  const inits = await Promise.all([1, 2, 3].map(() => createInit(from(hog))));
  const held = [await openStream(hog, inits[0]), await openStream(hog, inits[1])];
  expect(held.map((stream) => stream.status)).toEqual([200, 200]);
  const refused = await openStream(hog, inits[2]);
  expect(refused.status).toBe(429);
  refused.close();
  const other = await openStream("127.0.0.8", inits[2]);
  expect(other.status).toBe(200);
  for (const stream of [...held, other]) stream.close();
  // Parked at the edge (server/parking.mjs), a stream gives its place back as soon as its client leaves.
  const again = async () => {
    const stream = await openStream(hog, inits[2]);
    stream.close();
    return stream.status;
  };
  await expect.poll(again, { timeout: 5000 }).toBe(200);
});

/** A status request held with `Prefer: wait` from `localAddress`; `leave()` disconnects it mid-wait. */
function holdFrom(localAddress: string, init: CreatedInit, wait: number) {
  const controller = new AbortController();
  const answer = new Promise<{ status: number; applied: string | undefined }>((resolve, reject) => {
    const request = httpRequest({ host: "127.0.0.1", port: PORT, localAddress, path: `/api/init/${init.id}`, headers: { prefer: `wait=${wait}` }, signal: controller.signal }, (response) => {
      response.resume();
      response.on("end", () => resolve({ status: response.statusCode ?? 0, applied: response.headers["preference-applied"] as string | undefined }));
    });
    request.on("error", reject);
    request.end();
  });
  answer.catch(() => undefined);
  return { answer, leave: () => controller.abort() };
}

// A wait is parked at the edge (server/parking.mjs), and its place in the room goes with its client.
test("a parked wait whose client disconnects frees its place in the waiting room at once", async () => {
  const address = "127.0.0.9";
  const inits = await Promise.all([1, 2, 3].map(() => createInit(from(address))));
  const parked = [holdFrom(address, inits[0], 30), holdFrom(address, inits[1], 30)];
  await sleep(500);
  // The address holds its two places: a third wait is answered at once, as a poll.
  const third = await holdFrom(address, inits[2], 30).answer;
  expect(third).toEqual({ status: 200, applied: undefined });
  for (const wait of parked) wait.leave();
  await sleep(1100);
  const started = Date.now();
  const again = await holdFrom(address, inits[2], 2).answer;
  expect(again).toEqual({ status: 200, applied: "wait=2" });
  expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
});
