import { afterEach, describe, expect, it, vi } from "vitest";
import { waitingOn } from "@/lib/init/init-events";
import { createdInit } from "../../helpers/api";
import { approve, newAccount } from "../../helpers/forms";
import { dispatch } from "../../helpers/in-process";
import { PEER_ADDRESS_HEADER } from "@/server/request-context.mjs";

// The waiting room (lib/api/waiting-room.ts): a process holds at most WAITING_PER_PROCESS requests
// open at once, status requests with Prefer: wait and event streams together. Unbounded, enough
// held requests ran a worker out of heap and it crashed with everyone on it. One address holds at
// most a tenth of the room, at least one place: here, with a room of 20, two.
vi.hoisted(() => {
  process.env.WAITING_PER_PROCESS = "20";
});

const ROOM = 20;
const PER_ADDRESS = 2;

const controllers: AbortController[] = [];

afterEach(() => {
  for (const controller of controllers.splice(0)) controller.abort();
});

function request(path: string, headers: Record<string, string>) {
  const controller = new AbortController();
  controllers.push(controller);
  return { answer: dispatch("GET", path, { headers, signal: controller.signal }), abort: () => controller.abort() };
}

/** A different address for each number, as the room counts places per address. */
const from = (client: number) => ({ [PEER_ADDRESS_HEADER]: `198.51.100.${client}` });
const held = (id: string, headers: Record<string, string> = {}) => request(`/api/init/${id}`, { prefer: "wait=30", ...headers });
const stream = (id: string, headers: Record<string, string> = {}) => request(`/api/init/${id}/events`, headers);

/** Resolves once `count` requests of this process wait on the init. */
const waiting = (id: string, count = 1) => vi.waitFor(() => expect(waitingOn(id)).toBe(count), { timeout: 10_000 });

describe("the waiting room", () => {
  it("answers a wait past the bound at once as a plain poll, refuses a stream, and takes both again once a place is free", async () => {
    const { token } = await newAccount();
    const inits = await Promise.all(Array.from({ length: ROOM + 2 }, () => createdInit()));
    const [first, third, fourth] = [inits[0], inits[ROOM], inits[ROOM + 1]];
    // The room filled by ten addresses, each holding its share.
    const waits = inits.slice(0, ROOM).map((init, index) => held(init.id, from(Math.floor(index / PER_ADDRESS) + 1)));
    for (const init of inits.slice(0, ROOM)) await waiting(init.id);

    // Full: answered at once (nothing approves the third init) as a poll, without Preference-Applied.
    const plain = await held(third.id, from(100)).answer;
    expect(plain.status).toBe(200);
    expect(plain.headers.get("preference-applied")).toBeNull();
    expect(await plain.json()).toMatchObject({ id: third.id, status: "pending", interval: 5000 });
    expect(waitingOn(third.id)).toBe(0);

    const refused = await stream(fourth.id, from(101)).answer;
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(await refused.json()).toEqual({ error: "This server holds as many waiting requests as it can. Poll the status instead.", code: "server_busy" });
    expect(waitingOn(fourth.id)).toBe(0);

    // The approval ends the first wait, and its place goes to the next.
    expect((await approve(first.id, token, { project: "new", name: "Room", code_confirmed: "yes" })).status).toBe(303);
    expect(await (await waits[0].answer).json()).toMatchObject({ status: "done" });
    const streamed = await stream(fourth.id, from(101)).answer;
    expect(streamed.status).toBe(200);
    await waiting(fourth.id);
  });

  // About 192 inits from one address, 16 streams each, once filled a process's room.
  it("lets one address (IPv6: its /64) hold at most a tenth of the room, and another address still gets a stream", async () => {
    const inits = await Promise.all(Array.from({ length: 6 }, () => createdInit()));
    const hog = from(7);
    for (const init of inits.slice(0, PER_ADDRESS)) {
      stream(init.id, hog);
      await waiting(init.id);
    }
    const refused = await stream(inits[2].id, hog).answer;
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(await refused.json()).toEqual({ error: `At most ${PER_ADDRESS} event streams and waiting requests per address at once.`, code: "rate_limited" });
    const plain = await held(inits[2].id, hog).answer;
    expect(plain.status).toBe(200);
    expect(plain.headers.get("preference-applied")).toBeNull();

    const other = await stream(inits[3].id, from(8)).answer;
    expect(other.status).toBe(200);
    await waiting(inits[3].id);

    for (const [index, host] of [[4, "1"], [5, "ffff:1"]] as const) {
      stream(inits[index].id, { [PEER_ADDRESS_HEADER]: `2001:db8:1:2::${host}` });
      await waiting(inits[index].id);
    }
    expect((await stream(inits[2].id, { [PEER_ADDRESS_HEADER]: "2001:db8:1:2:abcd::1" }).answer).status).toBe(429);
    expect((await stream(inits[2].id, { [PEER_ADDRESS_HEADER]: "2001:db8:1:3::1" }).answer).status).toBe(200);
  });

  // The place is taken before anything awaits: requests arriving together cannot overshoot.
  it("holds exactly WAITING_PER_PROCESS of 50 waits that arrive at once, and answers the others at once", async () => {
    const inits = await Promise.all(Array.from({ length: 50 }, () => createdInit()));
    const waits = inits.map((init, index) => held(init.id, from(index + 1)).answer);
    const isHeld = (index: number) => waitingOn(inits[index].id) === 1;
    await vi.waitFor(() => expect(inits.filter((_, index) => isHeld(index))).toHaveLength(ROOM), { timeout: 10_000 });
    const others = await Promise.all(waits.filter((_, index) => !isHeld(index)));
    expect(others).toHaveLength(50 - ROOM);
    for (const answer of others) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get("preference-applied")).toBeNull();
    }
  });

  // Next neither reads nor cancels a HEAD answer's body: the stream must not outlive the answer.
  it("answers HEAD on the event stream with its headers, and keeps no stream open", async () => {
    const [first, second, third] = await Promise.all([createdInit(), createdInit(), createdInit()]);
    for (const init of [first, second]) {
      const answer = await dispatch("HEAD", `/api/init/${init.id}/events`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
      expect(answer.body).toBeNull();
      await waiting(init.id, 0);
    }
    held(third.id);
    await waiting(third.id);
  });

  it("gives the place back when a wait's request is refused (401), aborted, or its stream is cancelled", async () => {
    const [first, second, third] = await Promise.all([createdInit(), createdInit(), createdInit()]);
    for (let attempt = 0; attempt < 3; attempt++) {
      const wrongSecret = await held(first.id, { authorization: "Bearer ilsec_wrong" }).answer;
      expect(wrongSecret.status).toBe(401);
    }
    const aborted = held(first.id);
    await waiting(first.id);
    aborted.abort();
    await aborted.answer;
    const cancelled = await stream(second.id).answer;
    await waiting(second.id);
    await cancelled.body!.cancel();
    await waiting(second.id, 0);

    // Both places of this address are free: two more waits are held.
    held(second.id);
    stream(third.id);
    await waiting(second.id);
    await waiting(third.id);
  });
});
