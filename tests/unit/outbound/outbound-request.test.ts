import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { checkOutboundUrl, OutboundFailure, OutboundRefusal, postOutbound, resolveOutbound, type OutboundPolicy } from "@/lib/outbound/outbound-request";

// The rules for requests to a URL a person chose (a webhook endpoint's): https only, every
// address its host resolves to public, the connection made to the address that was checked (a
// second DNS answer is never asked for), no redirect followed, the time and the answer bounded.
// DNS is this test's: a host resolves to what the test says.

const lookup = vi.hoisted(() => vi.fn<(host: string, options: object) => Promise<{ address: string; family: number }[]>>());
vi.mock("node:dns/promises", () => ({ lookup }));

const strict: OutboundPolicy = { allowPrivate: false, allowLoopback: false };
const open: OutboundPolicy = { allowPrivate: true, allowLoopback: false };

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof OutboundRefusal ? error.code : String(error);
  }
  return null;
};

describe("checkOutboundUrl", () => {
  it("takes an https URL, and plain http only where private addresses or a loopback host are allowed", () => {
    expect(checkOutboundUrl("https://hooks.example.com/initlink", strict).href).toBe("https://hooks.example.com/initlink");
    expect(refusal(() => checkOutboundUrl("http://hooks.example.com/", strict))).toBe("outbound_url_invalid");
    expect(checkOutboundUrl("http://hooks.internal/", open).protocol).toBe("http:");
    expect(checkOutboundUrl("http://localhost:4000/", { allowPrivate: false, allowLoopback: true }).port).toBe("4000");
    expect(refusal(() => checkOutboundUrl("http://hooks.example.com/", { allowPrivate: false, allowLoopback: true }))).toBe("outbound_url_invalid");
  });

  it("refuses what is not an absolute URL, another scheme, credentials and a fragment", () => {
    for (const url of ["hooks.example.com/x", "/x", "ftp://hooks.example.com/", "file:///etc/passwd", "https://user:pw@hooks.example.com/", "https://hooks.example.com/#x"]) {
      expect(refusal(() => checkOutboundUrl(url, open)), url).toBe("outbound_url_invalid");
    }
  });
});

describe("resolveOutbound", () => {
  beforeEach(() => {
    lookup.mockReset();
  });

  it("refuses a host when any of its addresses is not public", async () => {
    lookup.mockResolvedValue([
      { address: "93.184.215.14", family: 4 },
      { address: "10.0.0.7", family: 4 },
    ]);
    await expect(resolveOutbound(new URL("https://mixed.example/"), strict)).rejects.toMatchObject({ code: "outbound_address_refused" });
    lookup.mockResolvedValue([{ address: "::ffff:127.0.0.1", family: 6 }]);
    await expect(resolveOutbound(new URL("https://mapped.example/"), strict)).rejects.toMatchObject({ code: "outbound_address_refused" });
    lookup.mockResolvedValue([]);
    await expect(resolveOutbound(new URL("https://nothing.example/"), strict)).rejects.toMatchObject({ code: "outbound_address_refused" });
  });

  it("answers the first address when every one is public, and says when the host does not resolve", async () => {
    lookup.mockResolvedValue([
      { address: "2606:4700:4700::1111", family: 6 },
      { address: "93.184.215.14", family: 4 },
    ]);
    expect(await resolveOutbound(new URL("https://hooks.example/"), strict)).toEqual({ address: "2606:4700:4700::1111", family: 6 });
    lookup.mockRejectedValue(Object.assign(new Error("getaddrinfo ENOTFOUND gone.example"), { code: "ENOTFOUND" }));
    await expect(resolveOutbound(new URL("https://gone.example/"), strict)).rejects.toThrow(new OutboundFailure("the host gone.example does not resolve"));
  });
});

describe("postOutbound", () => {
  let server: Server;
  let port: number;
  const received: IncomingMessage[] = [];
  let answer: (request: IncomingMessage, response: ServerResponse) => void;

  beforeEach(async () => {
    lookup.mockReset();
    received.length = 0;
    server = createServer((request, response) => {
      received.push(request);
      answer(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterEach(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const post = (url: string, policy: OutboundPolicy, timeoutMs = 2000) => postOutbound({ url: new URL(url), headers: { "content-type": "application/json" }, body: "{}", timeoutMs, maxBodyBytes: 1024 }, policy);

  it("connects to the address it checked: DNS is asked once, and its later answers are never used", async () => {
    answer = (_request, response) => response.writeHead(204).end();
    // The first answer is the one checked; a rebinding resolver would answer anything after it.
    lookup.mockResolvedValueOnce([{ address: "127.0.0.1", family: 4 }]).mockResolvedValue([{ address: "192.0.2.1", family: 4 }]);
    expect(await post(`http://hooks.rebind.example:${port}/events`, open)).toEqual({ status: 204, body: "" });
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(received.map((request) => request.headers.host)).toEqual([`hooks.rebind.example:${port}`]);
  });

  it("sends nothing to a host that resolves to a private address", async () => {
    answer = (_request, response) => response.writeHead(204).end();
    lookup.mockResolvedValue([{ address: "127.0.0.1", family: 4 }]);
    await expect(post(`https://hooks.rebind.example:${port}/events`, strict)).rejects.toMatchObject({ code: "outbound_address_refused" });
    expect(received).toEqual([]);
  });

  it("follows no redirect, keeps 1 KiB of the answer, and gives up after the timeout", async () => {
    answer = (_request, response) => response.writeHead(302, { location: `http://127.0.0.1:${port}/elsewhere` }).end("x".repeat(5000));
    const redirected = await post(`http://127.0.0.1:${port}/events`, open);
    expect(redirected.status).toBe(302);
    expect(redirected.body).toHaveLength(1024);
    expect(received.map((request) => request.url)).toEqual(["/events"]);

    answer = () => undefined;
    await expect(post(`http://127.0.0.1:${port}/slow`, open, 200)).rejects.toThrow(new OutboundFailure("no answer within 0.2 s"));
  });
});
