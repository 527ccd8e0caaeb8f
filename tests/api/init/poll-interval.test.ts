import { afterEach, describe, expect, it, vi } from "vitest";
import { PEER_ADDRESS_HEADER } from "@/server/request-context.mjs";
import { createdInit, getInitStatus, pollClocks } from "../../helpers/api";

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

  it("cannot be dodged by changing the User-Agent, the address or the spelling of Bearer", async () => {
    const init = await createdInit();
    travelTo(init.timestamp);
    expect((await getInitStatus(init.id)).status).toBe(200);
    for (const headers of [BROWSER, { "user-agent": "other/2.0" }, { [PEER_ADDRESS_HEADER]: "203.0.113.9" }, { "user-agent": "" }]) {
      expect((await getInitStatus(init.id, headers)).status).toBe(429);
    }
    expect((await getInitStatus(init.id, { authorization: `Bearer ${init.secret}` })).status).toBe(200);
    for (const authorization of [`bearer ${init.secret}`, `BEARER  ${init.secret}`, `Bearer ${init.secret} `]) {
      expect((await getInitStatus(init.id, { authorization, "user-agent": `cli/${authorization.length}` })).status).toBe(429);
    }
  });

  it("keeps one row per init and kind of poller however many polls arrive, updated in place", async () => {
    const init = await createdInit();
    let now = init.timestamp;
    for (let poll = 0; poll < 5; poll++) {
      travelTo(now);
      await getInitStatus(init.id, { "user-agent": `agent-${poll}` });
      await getInitStatus(init.id, { authorization: `Bearer ${init.secret}`, "user-agent": `agent-${poll}` });
      now += 5000;
    }
    expect((await pollClocks(init.id)).map((clock) => [clock.poller, clock.lastPolledAt])).toEqual([
      ["anyone", now - 5000],
      ["secret_holder", now - 5000],
    ]);
  });

  it("keeps two inits of one client apart", async () => {
    const first = await createdInit();
    const second = await createdInit();
    expect((await getInitStatus(first.id)).status).toBe(200);
    expect((await getInitStatus(second.id)).status).toBe(200);
  });

  it("lets exactly one of 50 simultaneous first polls of one kind through, however they vary their headers", async () => {
    const init = await createdInit();
    const polls = Array.from({ length: 50 }, (_unused, number) => getInitStatus(init.id, { "user-agent": `racer-${number}` }));
    const statuses = (await Promise.all(polls)).map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 429)).toHaveLength(49);
  });
});
