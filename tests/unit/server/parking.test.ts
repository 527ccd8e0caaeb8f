import { Agent, createServer, get, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PARK_ANSWER_HEADER, PARKING_HEADER, parkingEdge, readParkingHeader, registerParking, STOP_GRACE_MS, stopDeadlineMs } from "@/server/parking.mjs";

// The edge's parked requests, with a route standing in for Next.js.

const servers: ReturnType<typeof createServer>[] = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

/** Serves `serve` (one of the edge's) on a port of its own, as server.mjs does: a failure is kept and the response destroyed. */
async function edgeServer(serve: (request: IncomingMessage, response: ServerResponse) => Promise<void>, failures: unknown[]): Promise<number> {
  const server = createServer(
    (request, response) =>
      void serve(request, response).catch((error: unknown) => {
        failures.push(error);
        response.destroy();
      }),
  );
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/** A route whose first pass parks the stream, and whose resumed passes answer 503; counts the releases. */
function routeRefusingResumedPasses() {
  const counts = { released: 0 };
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const mark = readParkingHeader(request.headers[PARKING_HEADER] as string | undefined);
    if (mark === null) throw new Error("a pass without the edge's mark");
    if (mark.end === null) {
      registerParking(mark.id, { kind: "stream", next: async () => "changed", step: async () => ({ event: null, more: true }), release: () => void counts.released++ });
      response.writeHead(200, { "content-type": "text/event-stream", [PARK_ANSWER_HEADER]: "park" });
      response.end("retry: 5000\n\n");
      return;
    }
    response.writeHead(503, { "content-type": "application/json", "retry-after": "2" });
    response.end(JSON.stringify({ error: "The database is busy. Try again in a moment.", code: "unavailable" }));
  };
  return { handle, counts };
}

// A parked event stream whose later pass through the route is not answered 200 (the database
// too busy: 503): its first pass parks it with its first frame, every later pass is refused.
describe("a parked event stream whose pass is refused", () => {
  it("ends, as at the end of its lifetime, with what it wrote kept and its parking let go, and reports no failure", async () => {
    const { handle, counts } = routeRefusingResumedPasses();
    const { serveStream } = parkingEdge(handle);
    const failures: unknown[] = [];
    const port = await edgeServer(serveStream, failures);

    const received = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      get({ host: "127.0.0.1", port, path: "/api/init/any/events" }, (response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString()));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
        response.on("error", reject);
      }).on("error", reject);
    });
    expect(received).toEqual({ status: 200, body: "retry: 5000\n\n" });
    expect(failures).toEqual([]);
    expect(counts.released).toBe(1);
  });
});

/**
 * A route whose first pass parks a wait until `woken` resolves (counting the parked and the
 * released), and whose resumed passes `resumed` answers.
 */
function waitingRoute(woken: Promise<"stopping">, resumed: () => Promise<void>) {
  const counts = { parked: 0, released: 0 };
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const mark = readParkingHeader(request.headers[PARKING_HEADER] as string | undefined);
    if (mark === null) throw new Error("a pass without the edge's mark");
    if (mark.end === null) {
      registerParking(mark.id, { kind: "wait", until: Date.now() + 60_000, seconds: 60, next: () => woken, release: () => void counts.released++ });
      counts.parked += 1;
      response.writeHead(200, { [PARK_ANSWER_HEADER]: "park" });
      response.end();
      return;
    }
    await resumed();
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ status: "pending" }));
  };
  return { handle, counts };
}

// The process stopping wakes every parked wait at once (server.mjs). Their last passes go through
// the route a few at a time, so that they do not all wait on the database pool together (on
// PostgreSQL, past its 5 s: 503), and the process gives itself time for them.
describe("parked waits woken all at once", () => {
  it("pass through the route at most 16 at a time, and every one is answered", async () => {
    const waits = 200;
    let wake: () => void = () => undefined;
    const woken = new Promise<"stopping">((resolve) => (wake = () => resolve("stopping")));
    const passes = { inFlight: 0, mostInFlight: 0 };
    const { handle, counts } = waitingRoute(woken, async () => {
      passes.inFlight += 1;
      passes.mostInFlight = Math.max(passes.mostInFlight, passes.inFlight);
      // A database read.
      await new Promise((resolve) => setTimeout(resolve, 5));
      passes.inFlight -= 1;
    });
    const { serveWaiting } = parkingEdge(handle);
    const failures: unknown[] = [];
    const port = await edgeServer(serveWaiting, failures);
    const agent = new Agent({ maxSockets: Infinity });
    const answers = Array.from(
      { length: waits },
      () =>
        new Promise<number>((resolve, reject) => {
          get({ host: "127.0.0.1", port, path: "/api/init/any", agent }, (response) => {
            response.resume();
            response.on("end", () => resolve(response.statusCode ?? 0));
          }).on("error", reject);
        }),
    );
    await vi.waitFor(() => expect(counts.parked).toBe(waits), { timeout: 10_000 });
    // The process gives itself its 5 s and a millisecond for each parked request's last pass.
    expect(stopDeadlineMs()).toBe(STOP_GRACE_MS + waits);
    wake();
    expect(await Promise.all(answers)).toEqual(Array.from({ length: waits }, () => 200));
    expect(passes.mostInFlight).toBe(16);
    expect(failures).toEqual([]);
    agent.destroy();
  });
});

describe("a parked wait whose client leaves while its pass waits for a place", () => {
  it("lets go of its parking at once, not when a place frees, and is never passed", async () => {
    const waits = 20;
    let wake: () => void = () => undefined;
    const woken = new Promise<"stopping">((resolve) => (wake = () => resolve("stopping")));
    let openGate: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    let passes = 0;
    const { handle, counts } = waitingRoute(woken, async () => {
      passes += 1;
      // The 16 passes with a place hold it until the test opens the gate.
      await gate;
    });
    const { serveWaiting } = parkingEdge(handle);
    const failures: unknown[] = [];
    const port = await edgeServer(serveWaiting, failures);
    const agent = new Agent({ maxSockets: Infinity });
    const clients = Array.from({ length: waits }, () => get({ host: "127.0.0.1", port, path: "/api/init/any", agent }).on("error", () => undefined));
    await vi.waitFor(() => expect(counts.parked).toBe(waits), { timeout: 10_000 });
    wake();
    await vi.waitFor(() => expect(passes).toBe(16), { timeout: 10_000 });
    // Every client leaves: the 4 waiting for a place let go of their parkings now.
    for (const client of clients) client.destroy();
    await vi.waitFor(() => expect(counts.released).toBe(waits - 16), { timeout: 10_000 });
    openGate();
    await vi.waitFor(() => expect(counts.released).toBe(waits), { timeout: 10_000 });
    expect(passes).toBe(16);
    expect(failures).toEqual([]);
    agent.destroy();
  });
});
