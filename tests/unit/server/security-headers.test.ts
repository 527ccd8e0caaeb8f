import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setSecurityHeaders } from "@/server/security-headers.mjs";

// server.mjs sets every answer's security headers before Next sees the request, and puts a page's
// nonce in the request's policy, where Next reads it (server/security-headers.mjs). A real
// node:http server here; each answer echoes the request's policy header as Next would see it.

let server: Server;
let options = { httpsOnly: false, dev: false };

beforeAll(async () => {
  server = createServer((request, response) => {
    setSecurityHeaders(request, response, options);
    response.end(JSON.stringify({ policy: request.headers["content-security-policy"] ?? null, reportOnly: request.headers["content-security-policy-report-only"] ?? null }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A GET of the raw target, as sent: no URL parser removes its dot segments. */
function get(target: string, headers: Record<string, string> = {}): Promise<{ headers: IncomingHttpHeaders; seen: { policy: string | null; reportOnly: string | null } }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const sent = httpRequest({ host: "127.0.0.1", port, path: target, headers }, (response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => (text += chunk));
      response.on("end", () => resolve({ headers: response.headers, seen: JSON.parse(text) }));
    });
    sent.on("error", reject);
    sent.end();
  });
}

const FORGED = { "content-security-policy": "script-src 'nonce-chosenbyclient'", "content-security-policy-report-only": "script-src 'nonce-chosenbyclient'" };

describe("setSecurityHeaders", () => {
  it("gives a page a fresh nonce, in the answer's policy and the request's, whatever the client sent", async () => {
    const first = await get("/signin", FORGED);
    const second = await get("/signin");
    const policy = first.headers["content-security-policy"] as string;
    expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{24}' 'strict-dynamic';/);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain("unsafe-eval");
    expect(first.seen).toEqual({ policy, reportOnly: null });
    expect(second.headers["content-security-policy"]).not.toBe(policy);
  });

  it("gives the API its own policy and no nonce; the build's files none; a client's policy reaches neither", async () => {
    for (const target of ["/api/live", "/.well-known/jwks.json"]) {
      const answer = await get(target, FORGED);
      expect(answer.headers["content-security-policy"], target).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
      expect(answer.seen, target).toEqual({ policy: null, reportOnly: null });
    }
    for (const target of ["/_next/static/chunks/app.js", "/_next/image?url=%2Ficon.svg&w=64&q=75"]) {
      const answer = await get(target, FORGED);
      expect(answer.headers["content-security-policy"], target).toBeUndefined();
      expect(answer.seen, target).toEqual({ policy: null, reportOnly: null });
    }
  });

  // Next routes by the normalized path: these are pages, whatever their prefix says.
  it("treats a file path with a dot segment or an escape as a page", async () => {
    for (const target of ["/_next/static/%2e%2e/%2e%2e/signin", "/_next/static/../../signin", "/_next/image/../signin", "/favicon.ico"]) {
      const answer = await get(target);
      expect(answer.headers["content-security-policy"], target).toMatch(/'nonce-/);
      expect(answer.seen.policy, target).toBe(answer.headers["content-security-policy"]);
    }
  });

  // The image optimizer's exemption was once a prefix; Next answers a longer path with its HTML not-found page.
  it("exempts the image optimizer's one path only, not every path that begins with it", async () => {
    for (const target of ["/_next/imagefoo", "/_next/image-x?url=%2Ficon.svg", "/_next/images/a.png", "/_next/image.html"]) {
      const answer = await get(target);
      expect(answer.headers["content-security-policy"], target).toMatch(/'nonce-/);
      expect(answer.seen.policy, target).toBe(answer.headers["content-security-policy"]);
    }
    expect((await get("/_next/image")).headers["content-security-policy"]).toBeUndefined();
  });

  it("puts the headers of every answer on each, HSTS only over https, eval only for the development server", async () => {
    for (const target of ["/signin", "/api/live", "/_next/static/chunks/app.js"]) {
      const { headers } = await get(target);
      expect(headers["x-frame-options"], target).toBe("DENY");
      expect(headers["referrer-policy"], target).toBe("no-referrer");
      expect(headers["x-content-type-options"], target).toBe("nosniff");
      expect(headers["strict-transport-security"], target).toBeUndefined();
    }
    options = { httpsOnly: true, dev: true };
    const { headers } = await get("/signin");
    options = { httpsOnly: false, dev: false };
    expect(headers["strict-transport-security"]).toBe("max-age=63072000; includeSubDomains");
    expect(headers["content-security-policy"]).toContain("'strict-dynamic' 'unsafe-eval';");
  });
});
