import { describe, expect, it } from "vitest";
import { checkOutboundUrl, isPublicAddress, OutboundRefusal, resolveOutbound, type OutboundPolicy } from "@/lib/outbound/outbound-request";

// Which addresses a webhook may go to (lib/outbound/outbound-request.ts), range by range: every
// special-purpose range of IANA's registries, and the spellings that carry a private IPv4 address
// inside an IPv6 one or in a number a URL parser turns into one. An address in the URL is judged
// without DNS, so resolveOutbound is exercised here on them.

const strict: OutboundPolicy = { allowPrivate: false, allowLoopback: false };
const development: OutboundPolicy = { allowPrivate: false, allowLoopback: true };

describe("isPublicAddress, range by range", () => {
  it.each([
    ["8.8.8.8"],
    ["1.1.1.1"],
    ["93.184.215.14"],
    ["100.63.255.255"], // just below 100.64.0.0/10
    ["100.128.0.0"], // just above it
    ["172.15.255.255"],
    ["172.32.0.1"],
    ["2606:4700:4700::1111"],
    ["2a00:1450:4001:80b::200e"],
    ["::ffff:8.8.8.8"], // IPv4-mapped, read as the public IPv4 address it maps
  ])("%s is public", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    // IPv4
    ["0.0.0.0", "this network, 0.0.0.0/8"],
    ["0.1.2.3", "this network, 0.0.0.0/8"],
    ["10.0.0.1", "private, 10/8"],
    ["172.16.0.1", "private, 172.16/12"],
    ["172.31.255.255", "private, 172.16/12"],
    ["192.168.1.1", "private, 192.168/16"],
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["169.254.169.254", "link-local (cloud metadata)"],
    ["100.64.0.1", "carrier-grade NAT, 100.64/10"],
    ["100.127.255.254", "carrier-grade NAT, 100.64/10"],
    ["192.0.0.8", "IETF protocol assignments, 192.0.0/24"],
    ["192.0.2.1", "documentation, TEST-NET-1"],
    ["198.51.100.1", "documentation, TEST-NET-2"],
    ["203.0.113.1", "documentation, TEST-NET-3"],
    ["198.18.0.1", "benchmarking, 198.18/15"],
    ["192.88.99.1", "6to4 relay anycast"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast (SSDP)"],
    ["240.0.0.1", "reserved, 240/4"],
    ["255.255.255.255", "broadcast"],
    // IPv6
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["fe80::1", "link-local"],
    ["fc00::1", "unique local"],
    ["fd00:ec2::254", "unique local (cloud metadata)"],
    ["fec0::1", "site-local, deprecated"],
    ["ff02::1", "multicast"],
    ["ff0e::1", "multicast, global scope"],
    ["2001:db8::1", "documentation, 2001:db8::/32"],
    ["3fff::1", "documentation, 3fff::/20"],
    ["100::1", "discard-only, 100::/64"],
    ["2001:2::1", "benchmarking, 2001:2::/48"],
    ["5f00::1", "segment routing SIDs"],
    // IPv4 inside IPv6
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:7f00:1", "IPv4-mapped loopback, in hex"],
    ["0:0:0:0:0:ffff:a00:1", "IPv4-mapped private, written out"],
    ["::ffff:169.254.169.254", "IPv4-mapped link-local"],
    ["::ffff:0.0.0.0", "IPv4-mapped this network"],
    ["::ffff:0:7f00:1", "IPv4-translated (SIIT)"],
    ["::7f00:1", "IPv4-compatible loopback, ::/96"],
    ["::a00:1", "IPv4-compatible private, ::/96"],
    ["::808:808", "IPv4-compatible, deprecated whatever it embeds"],
    ["64:ff9b::a00:1", "NAT64, 64:ff9b::/96, embedding a private address"],
    ["64:ff9b::808:808", "NAT64, 64:ff9b::/96, embedding a public one: the translator is the network's"],
    ["64:ff9b:1::a00:1", "NAT64 local use, 64:ff9b:1::/48"],
    ["2002:7f00:1::1", "6to4, 2002::/16, embedding loopback"],
    ["2002:808:808::1", "6to4, 2002::/16"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo, 2001::/32"],
    ["2001::1", "Teredo, 2001::/32"],
    ["4000::1", "unallocated, outside 2000::/3"],
    // Not addresses
    ["", "empty"],
    ["localhost", "a name"],
    ["127.1", "a shorthand a URL parser expands, not an address here"],
    ["[::1]", "a URL's bracketed host"],
    ["1.2.3.4.5", "too many parts"],
  ])("%s is not public (%s)", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});

const refusalOf = async (url: string, policy: OutboundPolicy = strict) => {
  try {
    await resolveOutbound(checkOutboundUrl(url, policy), policy);
    return null;
  } catch (error) {
    return error instanceof OutboundRefusal ? `${error.code}: ${error.message}` : String(error);
  }
};

describe("a URL whose host is an address, as the endpoint form checks it", () => {
  it.each([
    ["https://0x7f000001/hooks", "127.0.0.1"],
    ["https://2130706433/hooks", "127.0.0.1"],
    ["https://017700000001/hooks", "127.0.0.1"],
    ["https://127.1/hooks", "127.0.0.1"],
    ["https://0/hooks", "0.0.0.0"],
    ["https://[::ffff:127.0.0.1]/hooks", "::ffff:7f00:1"],
    ["https://[0:0:0:0:0:ffff:7f00:1]/hooks", "::ffff:7f00:1"],
    ["https://[::127.0.0.1]/hooks", "::7f00:1"],
    ["https://[64:ff9b::169.254.169.254]/hooks", "64:ff9b::a9fe:a9fe"],
    ["https://[2002:a9fe:a9fe::]/hooks", "2002:a9fe:a9fe::"],
    ["https://100.64.0.1:8443/hooks", "100.64.0.1"],
    ["https://[ff02::1]/hooks", "ff02::1"],
  ])("refuses %s: its host is %s, after the URL parser's normalization", async (url, host) => {
    expect(await refusalOf(url)).toBe(`outbound_address_refused: ${host} resolves to a private or special-purpose address, which initlink does not send to`);
  });

  it("refuses an IPv6 zone, which no URL may carry", async () => {
    expect(await refusalOf("https://[fe80::1%25eth0]/hooks")).toBe("outbound_url_invalid: must be an absolute URL, such as https://api.example.com/webhooks");
  });

  it("takes a public address, over https only", async () => {
    expect(await refusalOf("https://8.8.8.8/hooks")).toBeNull();
    expect(await refusalOf("https://[2606:4700:4700::1111]:8443/hooks")).toBeNull();
    expect(await refusalOf("http://8.8.8.8/hooks")).toBe("outbound_url_invalid: must be an https:// URL");
  });

  it("takes a loopback address in development (npm run dev), over http too, and nothing else private", async () => {
    expect(await refusalOf("http://127.0.0.1:4000/hooks", development)).toBeNull();
    expect(await refusalOf("https://[::1]/hooks", development)).toBeNull();
    expect(await refusalOf("https://[::ffff:127.0.0.1]/hooks", development)).toBeNull();
    expect(await refusalOf("https://10.0.0.1/hooks", development)).toMatch(/^outbound_address_refused: /);
    expect(await refusalOf("http://10.0.0.1/hooks", development)).toBe("outbound_url_invalid: must be an https:// URL");
    expect(await refusalOf("https://[::7f00:1]/hooks", development)).toMatch(/^outbound_address_refused: /);
  });
});
