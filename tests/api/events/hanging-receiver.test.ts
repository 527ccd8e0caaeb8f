import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { TIMEOUT_MS } from "@/lib/events/delivery";
import { person, settingsToken } from "../../helpers/teams";
import { ahead, attemptsOf, deliverAll, deliverOnce, endpointFor, messagesOf, startReceiver, type Receiver } from "../../helpers/webhooks";

// A receiver that takes the request and never answers: the attempt ends at the worker's timeout
// (TIMEOUT_MS, 10 s), and the message is tried again. The one test here that waits for real
// time, in a file of its own so that the other files run beside it.

beforeAll(() => {
  Object.assign(process.env, { OUTBOUND_ALLOW_PRIVATE: "true", WEBHOOK_RETRY_SCHEDULE: "5s,5s,5s" });
});

let hooks: Receiver | null = null;
afterEach(async () => {
  await hooks?.close();
});

describe("a receiver that hangs", () => {
  it(
    "ends the attempt at the timeout, holds the message meanwhile, and delivers it once the receiver answers: the lost answer's retry is the only duplicate",
    async () => {
      hooks = await startReceiver();
      const owner = await person();
      const endpoint = await endpointFor(owner, hooks, ["access_token.created"]);
      const token = await settingsToken(owner, "all");
      hooks.behave({ kind: "hang" });

      const started = Date.now();
      const hanging = deliverOnce();
      await hooks.reached(1);
      // While the attempt waits, the message is leased: another pass (another instance) leaves it, even one whose clock is ahead.
      expect(await deliverOnce(ahead(5000)())).toEqual({ delivered: 0, retried: 0, failed: 0 });
      expect(await hanging).toEqual({ delivered: 0, retried: 1, failed: 0 });
      const waited = Date.now() - started;
      expect(waited).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      expect(waited).toBeLessThan(TIMEOUT_MS + 5000);
      const [timedOut] = await attemptsOf(endpoint.id);
      expect(timedOut).toMatchObject({ attempt: 1, statusCode: null, error: `no answer within ${TIMEOUT_MS / 1000} s` });
      expect(timedOut.durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);

      hooks.behave({ kind: "ok" });
      expect(await deliverAll(ahead(6500))).toEqual({ delivered: 1, retried: 0, failed: 0 });
      const [message] = await messagesOf(endpoint.id);
      expect(message).toMatchObject({ outcome: "delivered", attempts: 2, failures: 1 });
      expect(hooks.events.map((event) => [event.id, event.data.subject_id])).toEqual([[message.id, token.id]]);
      // The receiver saw the message twice, under one webhook-id: the request whose answer never came, and its retry.
      expect(hooks.seen).toEqual([message.id, message.id]);
      expect(await deliverAll(ahead(60_000))).toEqual({ delivered: 0, retried: 0, failed: 0 });
      expect(hooks.seen).toHaveLength(2);
    },
    TIMEOUT_MS * 3,
  );
});
