import { describe, expect, it } from "vitest";
import { clientAddress } from "@/lib/http/client-address";

const headers = (entries: Record<string, string>) => new Headers(entries);

describe("clientAddress", () => {
  it("is the TCP peer when no proxy is trusted, whatever X-Forwarded-For says", () => {
    expect(clientAddress(headers({ "x-initlink-peer": "198.51.100.4", "x-forwarded-for": "203.0.113.9" }), 0)).toBe("198.51.100.4");
  });

  it("unwraps IPv4-mapped IPv6 peers", () => {
    expect(clientAddress(headers({ "x-initlink-peer": "::ffff:127.0.0.1" }), 0)).toBe("127.0.0.1");
  });

  it("behind one trusted proxy is the address that proxy saw, not one the client prepended", () => {
    const forwarded = headers({ "x-initlink-peer": "10.0.0.2", "x-forwarded-for": "6.6.6.6, 203.0.113.9" });
    expect(clientAddress(forwarded, 1)).toBe("203.0.113.9");
  });

  it("is unknown without a peer (a request that did not come through server.mjs) or for garbage", () => {
    expect(clientAddress(headers({}), 0)).toBeNull();
    expect(clientAddress(headers({ "x-initlink-peer": "10.0.0.2", "x-forwarded-for": "not-an-ip" }), 1)).toBeNull();
  });
});
