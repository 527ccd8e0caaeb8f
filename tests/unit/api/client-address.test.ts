import { describe, expect, it } from "vitest";
import { clientAddress, forwardedAddress } from "@/lib/api/client-address";
import { LEGACY_PROXY_RANGES } from "@/server/config.mjs";

const headers = (entries: Record<string, string>) => new Headers(entries);
const NO_PROXY = { ranges: [], maxHops: 0 };
const BALANCER = { ranges: ["10.0.0.2/32"], maxHops: Number.POSITIVE_INFINITY };
const PRIVATE_NET = { ranges: ["10.0.0.0/8", "fd00::/8"], maxHops: Number.POSITIVE_INFINITY };

describe("clientAddress", () => {
  it("is the TCP peer when no proxy is trusted, whatever X-Forwarded-For says", () => {
    expect(clientAddress(headers({ "x-initlink-peer": "198.51.100.4", "x-forwarded-for": "203.0.113.9" }), NO_PROXY)).toBe("198.51.100.4");
  });

  it("unwraps IPv4-mapped IPv6 peers", () => {
    expect(clientAddress(headers({ "x-initlink-peer": "::ffff:127.0.0.1" }), NO_PROXY)).toBe("127.0.0.1");
  });

  // Each spelling of one address must be one client for the per-address limits (addressSubject).
  it("writes every address one way: an IPv4-mapped one in hex as IPv4, IPv6 in RFC 5952's form", () => {
    const behindProxy = (forwarded: string) => clientAddress(headers({ "x-initlink-peer": "10.0.0.2", "x-forwarded-for": forwarded }), BALANCER);
    expect(behindProxy("::ffff:c000:201")).toBe("192.0.2.1");
    expect(behindProxy("2001:0DB8:0:0:0:0:0:1")).toBe("2001:db8::1");
  });

  it("behind a trusted proxy is the address that proxy saw, not one the client prepended", () => {
    const forwarded = headers({ "x-initlink-peer": "10.0.0.2", "x-forwarded-for": "6.6.6.6, 203.0.113.9" });
    expect(clientAddress(forwarded, BALANCER)).toBe("203.0.113.9");
  });

  // Address spoofing: with a hop count, a client reaching the port directly picked its own address.
  it("believes X-Forwarded-For only from a peer that is a trusted proxy", () => {
    const direct = headers({ "x-initlink-peer": "198.51.100.4", "x-forwarded-for": "127.0.0.1" });
    expect(clientAddress(direct, BALANCER)).toBe("198.51.100.4");
    expect(clientAddress(direct, PRIVATE_NET)).toBe("198.51.100.4");
  });

  it("walks X-Forwarded-For from the right while each hop is a trusted proxy, IPv4 or IPv6", () => {
    const chain = (forwarded: string) => clientAddress(headers({ "x-initlink-peer": "10.0.0.2", "x-forwarded-for": forwarded }), PRIVATE_NET);
    expect(chain("6.6.6.6, 203.0.113.9, 10.1.2.3")).toBe("203.0.113.9");
    expect(chain("6.6.6.6, 2001:db8::7, fd00::1, 10.1.2.3")).toBe("2001:db8::7");
    // Every hop a proxy of ours: the furthest one is all that is known.
    expect(chain("10.9.9.9, 10.1.2.3")).toBe("10.9.9.9");
    // A repeated header reaches the app joined with ", ", in order.
    const repeated = new Headers([["x-initlink-peer", "10.0.0.2"], ["x-forwarded-for", "6.6.6.6"], ["x-forwarded-for", "203.0.113.9"]]);
    expect(clientAddress(repeated, PRIVATE_NET)).toBe("203.0.113.9");
  });

  it("reads an entry with a port as its address, not as unknown", () => {
    const withPort = (forwarded: string) => clientAddress(headers({ "x-initlink-peer": "10.0.0.2", "x-forwarded-for": forwarded }), BALANCER);
    expect(withPort("203.0.113.5:4431")).toBe("203.0.113.5");
    expect(withPort("[2001:db8::5]:4431")).toBe("2001:db8::5");
    expect(withPort("[2001:db8::5]")).toBe("2001:db8::5");
    expect(forwardedAddress(" 2001:db8::5 ")).toBe("2001:db8::5");
  });

  // TRUST_PROXY_HOPS alone, as existing deployments set it: the count, and only from proxies' usual addresses.
  it("with a hop count alone, walks at most that many hops, each from a loopback or private address", () => {
    const legacy = { ranges: LEGACY_PROXY_RANGES, maxHops: 1 };
    const through = (peer: string, forwarded: string) => clientAddress(headers({ "x-initlink-peer": peer, "x-forwarded-for": forwarded }), legacy);
    expect(through("10.0.0.2", "6.6.6.6, 203.0.113.9")).toBe("203.0.113.9");
    expect(through("127.0.0.1", "203.0.113.9")).toBe("203.0.113.9");
    expect(through("10.0.0.2", "6.6.6.6, 192.168.1.1")).toBe("192.168.1.1");
    expect(through("203.0.113.50", "127.0.0.1")).toBe("203.0.113.50");
  });

  it("is unknown without a peer (a request that did not come through server.mjs) or for garbage", () => {
    expect(clientAddress(headers({}), NO_PROXY)).toBeNull();
    expect(clientAddress(headers({ "x-initlink-peer": "10.0.0.2", "x-forwarded-for": "not-an-ip" }), BALANCER)).toBeNull();
    expect(clientAddress(headers({ "x-initlink-peer": "10.0.0.2", "x-forwarded-for": "203.0.113.9, unknown" }), BALANCER)).toBeNull();
  });
});
