import { describe, expect, it } from "vitest";
import { addressesDiffer, canonicalAddress } from "@/lib/ip-address";

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
