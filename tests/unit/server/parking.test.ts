import { createServer, get, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { PARK_ANSWER_HEADER, PARKING_HEADER, parkingEdge, readParkingHeader, registerParking } from "@/server/parking.mjs";

// The edge's parked event stream when a later pass through the route is not answered 200 (the
// database too busy: 503). The route stands in for Next.js here: its first pass parks the stream
// with its first frame, every later pass is refused.

const servers: ReturnType<typeof createServer>[] = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

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

describe("a parked event stream whose pass is refused", () => {
  it("ends, as at the end of its lifetime, with what it wrote kept and its parking let go, and reports no failure", async () => {
    const { handle, counts } = routeRefusingResumedPasses();
    const { serveStream } = parkingEdge(handle);
    const failures: unknown[] = [];
    // As server.mjs serves it: a failure is logged and the response destroyed.
    const server = createServer(
      (request, response) =>
        void serveStream(request, response).catch((error: unknown) => {
          failures.push(error);
          response.destroy();
        }),
    );
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;

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
