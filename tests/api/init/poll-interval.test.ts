import { afterEach, describe, expect, it, vi } from "vitest";
import { PEER_ADDRESS_HEADER } from "@/server/request-context.mjs";
import { createdInit, getInitStatus, pollClocks } from "../../helpers/api";
import { cookieHeader, newAccount } from "../../helpers/forms";

const BROWSER = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/156" };

afterEach(() => {
  vi.useRealTimers();
});

function travelTo(ms: number) {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(ms);
}

// RFC 8628 §3.5: polling faster than the interval gets slow_down (here 429 with Retry-After).
describe("GET /api/init/{id} — slow down", () => {
  it("never penalises the first poll, and tells a second immediate poll to slow down", async () => {
    const init = await createdInit();
    travelTo(init.timestamp);
    expect((await getInitStatus(init.id)).status).toBe(200);
    travelTo(init.timestamp + 1000);
    const response = await getInitStatus(init.id);
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("4");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ error: "Polling too fast: wait 5000 ms between requests.", code: "slow_down", interval: 5000 });
  });

  it("never slows down a client that polls at its interval, even with some jitter", async () => {
    const init = await createdInit();
    let now = init.timestamp;
    for (const gap of [5000, 5000, 4200, 5800, 4000, 5000]) {
      now += gap;
      travelTo(now);
      expect((await getInitStatus(init.id)).status).toBe(200);
    }
  });

  it("measures from the last accepted poll, so a rejected poll does not push the next one out", async () => {
    const init = await createdInit();
    travelTo(init.timestamp);
    expect((await getInitStatus(init.id)).status).toBe(200);
    travelTo(init.timestamp + 2000);
    expect((await getInitStatus(init.id)).status).toBe(429);
    travelTo(init.timestamp + 5000);
    expect((await getInitStatus(init.id)).status).toBe(200);
  });

  it("keeps one clock for the holder of the secret and one for anyone else, so the person's browser never slows the client down", async () => {
    const init = await createdInit();
    const client = { authorization: `Bearer ${init.secret}` };
    travelTo(init.timestamp);
    expect((await getInitStatus(init.id, client)).status).toBe(200);
    expect((await getInitStatus(init.id, BROWSER)).status).toBe(200);
    travelTo(init.timestamp + 5000);
    expect((await getInitStatus(init.id, BROWSER)).status).toBe(200);
    expect((await getInitStatus(init.id, client)).status).toBe(200);
  });

  it("cannot be dodged by changing the User-Agent or the spelling of Bearer", async () => {
    const init = await createdInit();
    travelTo(init.timestamp);
    expect((await getInitStatus(init.id)).status).toBe(200);
    for (const headers of [BROWSER, { "user-agent": "other/2.0" }, { "user-agent": "" }]) {
      expect((await getInitStatus(init.id, headers)).status).toBe(429);
    }
    expect((await getInitStatus(init.id, { authorization: `Bearer ${init.secret}` })).status).toBe(200);
    for (const authorization of [`bearer ${init.secret}`, `BEARER  ${init.secret}`, `Bearer ${init.secret} `]) {
      expect((await getInitStatus(init.id, { authorization, "user-agent": `cli/${authorization.length}` })).status).toBe(429);
    }
  });

  // Readers without the secret once shared one clock, so another address polling
  // every 3.8 s made a 5-second poller's every request a 429.
  it("keeps a clock per reader without the secret: another address never slows down one that keeps time", async () => {
    const init = await createdInit();
    const client = { [PEER_ADDRESS_HEADER]: "198.51.100.7" };
    const stranger = { [PEER_ADDRESS_HEADER]: "203.0.113.9" };
    const polls: [number, Record<string, string>][] = [];
    for (let at = 0; at <= 20_000; at += 5000) polls.push([at, client]);
    for (let at = 100; at <= 20_000; at += 3800) polls.push([at, stranger]);
    polls.sort(([a], [b]) => a - b);
    for (const [at, headers] of polls) {
      travelTo(init.timestamp + at);
      expect((await getInitStatus(init.id, headers)).status, `${headers[PEER_ADDRESS_HEADER]} at ${at} ms`).toBe(200);
    }
    // A reader that itself polls too fast is still told to slow down (RFC 8628 §3.5).
    travelTo(init.timestamp + 21_000);
    const fast = await getInitStatus(init.id, stranger);
    expect(fast.status).toBe(429);
    expect(await fast.json()).toMatchObject({ code: "slow_down", interval: 5000 });
  });

  it("counts an IPv6 reader by its /64, as every per-address rule does", async () => {
    const init = await createdInit();
    travelTo(init.timestamp);
    expect((await getInitStatus(init.id, { [PEER_ADDRESS_HEADER]: "2001:db8:1:2::1" })).status).toBe(200);
    expect((await getInitStatus(init.id, { [PEER_ADDRESS_HEADER]: "2001:db8:1:2:ffff::9" })).status).toBe(429);
    expect((await getInitStatus(init.id, { [PEER_ADDRESS_HEADER]: "2001:db8:1:3::1" })).status).toBe(200);
  });

  // The init page's fallback polling, from the person's own machine, answered
  // once answered the client beside it with slow_down; the original platform's CLI then gave up.
  it("never counts the init page's polling, by a signed-in viewer, against a client at the same address", async () => {
    const { token } = await newAccount();
    const init = await createdInit();
    const viewer = { ...BROWSER, ...cookieHeader(token) };
    let now = init.timestamp;
    for (let poll = 0; poll < 4; poll++) {
      travelTo(now);
      expect((await getInitStatus(init.id, viewer)).status).toBe(200);
      expect((await getInitStatus(init.id, { "user-agent": "envsync-cli/1.4.2" })).status).toBe(200);
      now += 5000;
    }
    // The viewer's own clock still says slow down to a page that polls too fast.
    expect((await getInitStatus(init.id, viewer)).status).toBe(429);
    expect((await pollClocks(init.id)).map((clock) => clock.poller).sort()).toEqual(["reader:127.0.0.1", expect.stringMatching(/^viewer:/)]);
  });

  it("counts a request with a session that is no longer valid as a reader at its address", async () => {
    const init = await createdInit();
    travelTo(init.timestamp);
    expect((await getInitStatus(init.id)).status).toBe(200);
    expect((await getInitStatus(init.id, cookieHeader("not-a-session"))).status).toBe(429);
  });

  it("keeps one row per init and poller however many polls arrive, updated in place", async () => {
    const init = await createdInit();
    let now = init.timestamp;
    for (let poll = 0; poll < 5; poll++) {
      travelTo(now);
      await getInitStatus(init.id, { "user-agent": `agent-${poll}` });
      await getInitStatus(init.id, { authorization: `Bearer ${init.secret}`, "user-agent": `agent-${poll}` });
      now += 5000;
    }
    expect((await pollClocks(init.id)).map((clock) => [clock.poller, clock.lastPolledAt])).toEqual([
      ["reader:127.0.0.1", now - 5000],
      ["secret_holder", now - 5000],
    ]);
  });

  it("keeps two inits of one client apart", async () => {
    const first = await createdInit();
    const second = await createdInit();
    expect((await getInitStatus(first.id)).status).toBe(200);
    expect((await getInitStatus(second.id)).status).toBe(200);
  });

  it("lets exactly one of 50 simultaneous first polls of one reader through, however they vary their headers", async () => {
    const init = await createdInit();
    const polls = Array.from({ length: 50 }, (_unused, number) => getInitStatus(init.id, { "user-agent": `racer-${number}` }));
    const statuses = (await Promise.all(polls)).map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 429)).toHaveLength(49);
  });
});
