import { describe, expect, it } from "vitest";
import { addressesDiffer, addressKind, canonicalAddress, reportedAddressFlagged, sameNetwork } from "@/lib/ip-address";

// The init page's "differs from the reported address" flag compares addresses, not spellings.

describe("addressesDiffer", () => {
  it.each([
    ["::1", "0:0:0:0:0:0:0:1"],
    ["2001:DB8::1", "2001:db8:0:0:0:0:0:1"],
    ["2001:db8::1:0:0:1", "2001:0db8:0000:0000:0001:0000:0000:0001"],
    ["::ffff:1.2.3.4", "1.2.3.4"],
    ["::FFFF:102:304", "1.2.3.4"],
    ["0:0:0:0:0:ffff:0102:0304", "::ffff:1.2.3.4"],
    [" 10.0.0.1 ", "10.0.0.1"],
  ])("%s and %s are one address", (reported, observed) => {
    expect(addressesDiffer(reported, observed)).toBe(false);
    expect(addressesDiffer(observed, reported)).toBe(false);
  });

  it.each([
    ["::1", "::2"],
    ["1.2.3.4", "1.2.3.5"],
    ["::1", "127.0.0.1"],
    ["2001:db8::1", "2001:db8::1:0"],
    // IPv4-compatible (deprecated) is not IPv4-mapped.
    ["::1.2.3.4", "1.2.3.4"],
  ])("%s and %s differ", (reported, observed) => {
    expect(addressesDiffer(reported, observed)).toBe(true);
  });

  it("flags nothing when either address is unknown", () => {
    expect(addressesDiffer(null, "1.2.3.4")).toBe(false);
    expect(addressesDiffer("::1", null)).toBe(false);
  });

  it("flags nothing when the reported value is not an address (an existing client's \"Unknown\")", () => {
    expect(addressesDiffer("Unknown", "1.2.3.4")).toBe(false);
  });

  it("writes IPv6 in RFC 5952's form", () => {
    expect(canonicalAddress("2001:0DB8:0000:0000:0000:0000:0000:0001")).toBe("2001:db8::1");
    expect(canonicalAddress("fe80::1%eth0")).toBe("fe80::1%eth0");
    expect(canonicalAddress("not an address")).toBeNull();
  });
});

// Issue 28: an honest client reports its first interface's address, private as often as not.
describe("addressKind and reportedAddressFlagged", () => {
  it.each([
    ["127.0.0.5", "loopback"],
    ["::1", "loopback"],
    ["10.1.2.3", "private"],
    ["172.20.0.1", "private"],
    ["192.168.1.10", "private"],
    ["100.64.0.1", "private"],
    ["fd12:3456::1", "private"],
    ["::ffff:192.168.1.10", "private"],
    ["169.254.10.1", "link_local"],
    ["fe80::1", "link_local"],
    ["8.8.8.8", "public"],
    ["2001:4860::8888", "public"],
    ["172.32.0.1", "public"],
    ["Unknown", null],
  ])("%s is %s", (address, kind) => {
    expect(addressKind(address)).toBe(kind);
  });

  it("flags only a public reported address that differs from the observed one", () => {
    expect(reportedAddressFlagged("192.168.1.10", "203.0.113.5")).toBe(false);
    expect(reportedAddressFlagged("127.0.0.1", "203.0.113.5")).toBe(false);
    expect(reportedAddressFlagged("203.0.113.5", "203.0.113.5")).toBe(false);
    expect(reportedAddressFlagged("Unknown", "203.0.113.5")).toBe(false);
    expect(reportedAddressFlagged(null, "203.0.113.5")).toBe(false);
    expect(reportedAddressFlagged("8.8.8.8", "203.0.113.5")).toBe(true);
  });
});

describe("sameNetwork", () => {
  const DEFAULTS = { ipv4: 24, ipv6: 56 };
  it("compares the configured leading bits of one family", () => {
    expect(sameNetwork("198.51.100.7", "198.51.100.255", DEFAULTS)).toBe(true);
    expect(sameNetwork("198.51.100.7", "198.51.101.7", DEFAULTS)).toBe(false);
    expect(sameNetwork("2001:db8:0:100::1", "2001:db8:0:1ff::1", DEFAULTS)).toBe(true);
    expect(sameNetwork("2001:db8:0:100::1", "2001:db8:0:200::1", DEFAULTS)).toBe(false);
    expect(sameNetwork("::ffff:198.51.100.7", "198.51.100.8", DEFAULTS)).toBe(true);
    expect(sameNetwork("198.51.100.7", "2001:db8::1", DEFAULTS)).toBe(false);
    expect(sameNetwork("198.51.100.7", "Unknown", DEFAULTS)).toBe(false);
    expect(sameNetwork("198.51.100.7", "198.51.255.7", { ipv4: 16, ipv6: 56 })).toBe(true);
    // 0: every address of the family is one network.
    expect(sameNetwork("1.2.3.4", "203.0.113.9", { ipv4: 0, ipv6: 0 })).toBe(true);
  });
});
