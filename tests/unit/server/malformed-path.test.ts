import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERRORS } from "@/lib/errors";
import { hasMalformedEscape, refuseMalformedPath } from "@/server/malformed-path.mjs";
import { UNDECODABLE_ESCAPES } from "../../helpers/hostile/generators";

// A path whose percent-escape does not decode is answered 400 by server.mjs
// (Next's own decoding answered a plain-text 500); the production build's answers:
// tests/e2e/hardening.spec.ts.
describe("hasMalformedEscape", () => {
  it.each(UNDECODABLE_ESCAPES)("finds %s in a path", (escape) => {
    expect(hasMalformedEscape(`/api/init/${escape}`)).toBe(true);
    expect(hasMalformedEscape(`/init/abc${escape}/approve?x=1`)).toBe(true);
  });

  it.each(["/api/init/f0hzLD1VaTUHWk7oIoQhpg", "/api/init/%2e%2e", "/init/%E0%A4%AB", "/%F0%9F%98%80", "/signin?returnTo=%E0%A4%A", "/api/x?%zz"])("lets %s through (decodable, or only the query is broken)", (target) => {
    expect(hasMalformedEscape(target)).toBe(false);
  });
});

describe("refuseMalformedPath", () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((request, response) => {
      if (refuseMalformedPath(request, response, "/api/init/[id]")) return;
      response.end("passed on");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const send = (path: string) =>
    new Promise<{ status: number; type: string; connection: string; text: string }>((resolve, reject) => {
      const request = httpRequest({ host: "127.0.0.1", port, path }, (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => (text += chunk.toString()));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, type: response.headers["content-type"] ?? "", connection: response.headers.connection ?? "", text }));
      });
      request.on("error", reject);
      request.end();
    });

  it("answers the API's 400 malformed_path as the error catalogue describes it", async () => {
    for (const path of ["/api/init/%E0%A4%A", "/.well-known/%zz"]) {
      const answer = await send(path);
      expect(answer.status).toBe(ERRORS.malformed_path.status);
      expect(answer.type).toBe("application/json");
      expect(answer.connection).toBe("close");
      expect(JSON.parse(answer.text)).toEqual({ error: ERRORS.malformed_path.example, code: "malformed_path" });
    }
  });

  it("answers a page's 400 elsewhere, and passes a decodable path on", async () => {
    const page = await send("/init/%E0%A4%A");
    expect(page.status).toBe(400);
    expect(page.type).toBe("text/html; charset=utf-8");
    expect(page.text).toContain("<h1>Bad request</h1>");
    expect((await send("/init/%E0%A4%AB")).text).toBe("passed on");
  });
});
