import { describe, expect, it } from "vitest";
import { GET as metrics } from "@/app/api/metrics/route";
import { PEER_ADDRESS_HEADER } from "@/server/request-context.mjs";
import { createdInit, getInitStatus } from "../../helpers/api";
import { parseMetrics, sampleValue } from "../../helpers/metrics-text.mjs";

// GET /api/metrics without METRICS_TOKEN: served to loopback callers only (docs/operations.md);
// tests/api/metrics/metrics-token.test.ts has the bearer. Request counts are server.mjs's and are
// checked over HTTP (tests/load/operations-test.mjs).

const scrape = (peer: string, headers: Record<string, string> = {}) =>
  metrics(new Request("http://localhost:3000/api/metrics", { headers: { [PEER_ADDRESS_HEADER]: peer, ...headers } }), { params: Promise.resolve({}) });

describe("GET /api/metrics without METRICS_TOKEN", () => {
  it("answers a loopback caller with the metrics in Prometheus's text format", async () => {
    for (const peer of ["127.0.0.1", "::1", "::ffff:127.0.0.1"]) {
      const response = await scrape(peer);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
      expect(response.headers.get("cache-control")).toBe("no-store");
      const samples = parseMetrics(await response.text());
      expect(sampleValue(samples, "initlink_waiting_clients", { kind: "prefer_wait" })).toBe(0);
      expect(sampleValue(samples, "initlink_waiting_clients", { kind: "event_stream" })).toBe(0);
      for (const state of ["ready", "generating", "queued"]) expect(sampleValue(samples, "initlink_project_key_pool", { state })).toBeGreaterThanOrEqual(0);
      expect(sampleValue(samples, "process_resident_memory_bytes")).toBeGreaterThan(0);
    }
  });

  // Anyone else learns nothing, not even that the endpoint exists.
  it.each(["192.0.2.10", "2001:db8::1", "10.0.0.1"])("answers %s 404 JSON", async (peer) => {
    const response = await scrape(peer);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "Metrics are served to loopback callers only unless METRICS_TOKEN is set.", code: "not_found" });
  });

  // A client cannot claim loopback through X-Forwarded-For when no proxy is trusted.
  it("reads the caller's address as every other rule does, not from X-Forwarded-For", async () => {
    expect((await scrape("192.0.2.10", { "x-forwarded-for": "127.0.0.1" })).status).toBe(404);
  });

  it("counts a status request held with Prefer: wait while it waits", async () => {
    const { id } = await createdInit();
    const held = getInitStatus(id, { prefer: "wait=2" });
    let during: number | undefined;
    for (let attempt = 0; attempt < 40 && during !== 1; attempt++) {
      during = sampleValue(parseMetrics(await (await scrape("127.0.0.1")).text()), "initlink_waiting_clients", { kind: "prefer_wait" });
      if (during !== 1) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(during).toBe(1);
    expect((await held).status).toBe(200);
    expect(sampleValue(parseMetrics(await (await scrape("127.0.0.1")).text()), "initlink_waiting_clients", { kind: "prefer_wait" })).toBe(0);
  });
});
