import { describe, expect, it, vi } from "vitest";
import { GET as metrics } from "@/app/api/metrics/route";
import { PEER_ADDRESS_HEADER } from "@/server/request-context.mjs";
import { parseMetrics } from "../../helpers/metrics-text.mjs";

// GET /api/metrics with METRICS_TOKEN: the bearer is required from every address, loopback too.
const TOKEN = "metrics-test-token-0123456789abcdef";
vi.hoisted(() => {
  process.env.METRICS_TOKEN = "metrics-test-token-0123456789abcdef";
});

const scrape = (headers: Record<string, string>, peer = "192.0.2.10") =>
  metrics(new Request("http://localhost:3000/api/metrics", { headers: { [PEER_ADDRESS_HEADER]: peer, ...headers } }), { params: Promise.resolve({}) });

describe("GET /api/metrics with METRICS_TOKEN", () => {
  it("answers the right bearer from anywhere", async () => {
    const response = await scrape({ authorization: `Bearer ${TOKEN}` });
    expect(response.status).toBe(200);
    expect(parseMetrics(await response.text()).length).toBeGreaterThan(0);
  });

  // RFC 6750 §3: no credential is 401 with a challenge; a wrong one names invalid_token.
  it.each([
    [{}, "127.0.0.1", "unauthorized", 'Bearer realm="initlink"'],
    [{}, "192.0.2.10", "unauthorized", 'Bearer realm="initlink"'],
    [{ authorization: `Bearer ${TOKEN}x` }, "192.0.2.10", "invalid_token", 'Bearer realm="initlink", error="invalid_token"'],
    [{ authorization: `Bearer ${TOKEN.slice(0, -1)}` }, "127.0.0.1", "invalid_token", 'Bearer realm="initlink", error="invalid_token"'],
    [{ authorization: `Basic ${Buffer.from(`metrics:${TOKEN}`).toString("base64")}` }, "192.0.2.10", "invalid_token", 'Bearer realm="initlink", error="invalid_token"'],
    [{ authorization: TOKEN }, "192.0.2.10", "invalid_token", 'Bearer realm="initlink", error="invalid_token"'],
  ])("refuses %o from %s with 401 %s", async (headers, peer, code, challenge) => {
    const response = await scrape(headers, peer);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(challenge);
    const body = await response.json();
    expect(body).toEqual({ error: "Send METRICS_TOKEN as Authorization: Bearer <token>.", code });
    expect(JSON.stringify(body)).not.toContain(TOKEN);
  });
});
