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

// An honest client reports its first interface's address, private as often as not; kinds come
// from IANA's special-purpose registries (RFC 6890), and only a public (unicast) report is flagged.
describe("addressKind and reportedAddressFlagged", () => {
  it.each([
    ["127.0.0.5", "loopback"],
    ["::1", "loopback"],
    ["10.1.2.3", "private"],
    ["172.20.0.1", "private"],
    ["192.168.1.10", "private"],
    // RFC 6598, shared address space: a carrier's NAT.
    ["100.64.0.1", "private"],
    ["100.127.255.254", "private"],
    ["fd12:3456::1", "private"],
    ["::ffff:192.168.1.10", "private"],
    ["169.254.10.1", "link_local"],
    ["fe80::1", "link_local"],
    ["fe80::1%eth0", "link_local"],
    ["8.8.8.8", "public"],
    ["2001:4860::8888", "public"],
    ["172.32.0.1", "public"],
    ["100.128.0.1", "public"],
    ["198.20.0.1", "public"],
    ["::ffff:8.8.8.8", "public"],
    // RFC 5737 and RFC 3849: documentation.
    ["192.0.2.10", "special"],
    ["198.51.100.7", "special"],
    ["203.0.113.255", "special"],
    ["2001:db8::1", "special"],
    ["2001:DB8:ffff::1", "special"],
    // RFC 2544: benchmarking.
    ["198.18.0.1", "special"],
    ["198.19.255.255", "special"],
    // Reserved, unspecified, broadcast, multicast, protocol assignments, translation, 6to4.
    ["240.0.0.1", "special"],
    ["0.0.0.0", "special"],
    ["255.255.255.255", "special"],
    ["224.0.0.1", "special"],
    ["192.0.0.9", "special"],
    ["::", "special"],
    ["ff02::1", "special"],
    ["64:ff9b::808:808", "special"],
    ["2002:c000:204::1", "special"],
    ["3fff::1", "special"],
    // IPv6 outside 2000::/3 is unallocated, IPv4-compatible (deprecated) included.
    ["::1.2.3.4", "special"],
    ["1::1", "special"],
    ["Unknown", null],
  ])("%s is %s", (address, kind) => {
    expect(addressKind(address)).toBe(kind);
  });

  it.each(["192.0.2.10", "198.51.100.7", "203.0.113.5", "2001:db8::1", "100.64.0.1", "198.18.0.1", "192.168.1.10", "127.0.0.1", "fe80::1", "Unknown"])(
    "never flags a reported %s, which is no public address",
    (reported) => {
      expect(reportedAddressFlagged(reported, "8.8.4.4")).toBe(false);
    },
  );

  it("flags a public reported address only when it differs from the observed one", () => {
    expect(reportedAddressFlagged("8.8.8.8", "8.8.8.8")).toBe(false);
    expect(reportedAddressFlagged("::ffff:8.8.8.8", "8.8.8.8")).toBe(false);
    expect(reportedAddressFlagged(null, "8.8.4.4")).toBe(false);
    expect(reportedAddressFlagged("8.8.8.8", null)).toBe(false);
    expect(reportedAddressFlagged("8.8.8.8", "8.8.4.4")).toBe(true);
    expect(reportedAddressFlagged("2001:4860::8888", "127.0.0.1")).toBe(true);
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
