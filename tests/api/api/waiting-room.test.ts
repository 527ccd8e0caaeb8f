import { afterEach, describe, expect, it, vi } from "vitest";
import { waitingOn } from "@/lib/init/init-events";
import { createdInit } from "../../helpers/api";
import { approve, newAccount } from "../../helpers/forms";
import { dispatch } from "../../helpers/in-process";

// The waiting room (lib/api/waiting-room.ts): a process holds at most WAITING_PER_PROCESS requests
// open at once, status requests with Prefer: wait and event streams together. Unbounded, enough
// held requests ran a worker out of heap and it crashed with everyone on it.
vi.hoisted(() => {
  process.env.WAITING_PER_PROCESS = "2";
});

const controllers: AbortController[] = [];

afterEach(() => {
  for (const controller of controllers.splice(0)) controller.abort();
});

function request(path: string, headers: Record<string, string>) {
  const controller = new AbortController();
  controllers.push(controller);
  return { answer: dispatch("GET", path, { headers, signal: controller.signal }), abort: () => controller.abort() };
}

const held = (id: string, headers: Record<string, string> = {}) => request(`/api/init/${id}`, { prefer: "wait=30", ...headers });
const stream = (id: string) => request(`/api/init/${id}/events`, {});

/** Resolves once `count` requests of this process wait on the init. */
const waiting = (id: string, count = 1) => vi.waitFor(() => expect(waitingOn(id)).toBe(count), { timeout: 10_000 });

describe("the waiting room", () => {
  it("answers a wait past the bound at once as a plain poll, refuses a stream, and takes both again once a place is free", async () => {
    const { token } = await newAccount();
    const [first, second, third, fourth] = await Promise.all([createdInit(), createdInit(), createdInit(), createdInit()]);
    const firstWait = held(first.id);
    held(second.id);
    await waiting(first.id);
    await waiting(second.id);

    // Full: answered at once (nothing approves the third init) as a poll, without Preference-Applied.
    const plain = await held(third.id).answer;
    expect(plain.status).toBe(200);
    expect(plain.headers.get("preference-applied")).toBeNull();
    expect(await plain.json()).toMatchObject({ id: third.id, status: "pending", interval: 5000 });
    expect(waitingOn(third.id)).toBe(0);

    const refused = await stream(fourth.id).answer;
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(await refused.json()).toEqual({ error: "This server holds as many waiting requests as it can. Poll the status instead.", code: "server_busy" });
    expect(waitingOn(fourth.id)).toBe(0);

    // The approval ends the first wait, and its place goes to the next.
    expect((await approve(first.id, token, { project: "new", name: "Room", code_confirmed: "yes" })).status).toBe(303);
    expect(await (await firstWait.answer).json()).toMatchObject({ status: "done" });
    const streamed = await stream(fourth.id).answer;
    expect(streamed.status).toBe(200);
    await waiting(fourth.id);
  });

  // The place is taken before anything awaits: requests arriving together cannot overshoot.
  it("holds exactly WAITING_PER_PROCESS of 50 waits that arrive at once, and answers the others at once", async () => {
    const inits = await Promise.all(Array.from({ length: 50 }, () => createdInit()));
    const waits = inits.map((init) => held(init.id).answer);
    const isHeld = (index: number) => waitingOn(inits[index].id) === 1;
    await vi.waitFor(() => expect(inits.filter((_, index) => isHeld(index))).toHaveLength(2), { timeout: 10_000 });
    const others = await Promise.all(waits.filter((_, index) => !isHeld(index)));
    expect(others).toHaveLength(48);
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

    // Both places are free: two more waits are held.
    held(second.id);
    stream(third.id);
    await waiting(second.id);
    await waiting(third.id);
  });
});
