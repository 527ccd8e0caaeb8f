import { describe, expect, it } from "vitest";
import { clientAddress } from "@/lib/api/client-address";

const headers = (entries: Record<string, string>) => new Headers(entries);

describe("clientAddress", () => {
  it("is the TCP peer when no proxy is trusted, whatever X-Forwarded-For says", () => {
    expect(clientAddress(headers({ "x-initlink-peer": "198.51.100.4", "x-forwarded-for": "203.0.113.9" }), 0)).toBe("198.51.100.4");
  });

  it("unwraps IPv4-mapped IPv6 peers", () => {
    expect(clientAddress(headers({ "x-initlink-peer": "::ffff:127.0.0.1" }), 0)).toBe("127.0.0.1");
  });

  // Each spelling of one address must be one client for the per-address limits (addressSubject).
  it("writes every address one way: an IPv4-mapped one in hex as IPv4, IPv6 in RFC 5952's form", () => {
    const behindProxy = (forwarded: string) => clientAddress(headers({ "x-initlink-peer": "10.0.0.2", "x-forwarded-for": forwarded }), 1);
    expect(behindProxy("::ffff:c000:201")).toBe("192.0.2.1");
    expect(behindProxy("2001:0DB8:0:0:0:0:0:1")).toBe("2001:db8::1");
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
