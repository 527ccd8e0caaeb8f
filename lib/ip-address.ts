import { BlockList, isIP } from "node:net";
import ipaddr from "ipaddr.js";

// One spelling per IP address, for every place that compares or counts addresses (the client's
// address, its /64, the reported one): an IPv6 address has many spellings (`::1` and
// `0:0:0:0:0:0:0:1`, upper or lower case), and an IPv4 client reached over an IPv6 socket or
// named by a proxy may appear as `::ffff:1.2.3.4` or `::ffff:102:304` (RFC 4291 §2.5.5.2).

const IPV4_MAPPED = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/;

/** One spelling per address: IPv4 dotted, IPv6 compressed lower case (RFC 5952), IPv4-mapped as IPv4; null if not an address. */
export function canonicalAddress(address: string): string | null {
  const text = address.trim();
  const kind = isIP(text);
  if (kind === 4) return text;
  if (kind !== 6) return null;
  const zoneAt = text.indexOf("%");
  const bare = zoneAt === -1 ? text : text.slice(0, zoneAt);
  const zone = zoneAt === -1 ? "" : text.slice(zoneAt);
  // The URL parser writes an IPv6 host in RFC 5952's form, hex pairs for an embedded IPv4 part included.
  const compressed = new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  const mapped = IPV4_MAPPED.exec(compressed);
  if (mapped === null) return compressed + zone;
  const [high, low] = [parseInt(mapped[1], 16), parseInt(mapped[2], 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}

/** Whether an address (in any spelling, or null for none) is the machine's own: 127.0.0.0/8 or ::1. */
export function isLoopback(address: string | null): boolean {
  const canonical = address === null ? null : canonicalAddress(address);
  return canonical !== null && (canonical === "::1" || canonical.startsWith("127."));
}

// The init page flags a client whose reported address differs from the one its request came
// from: compared as addresses, not as strings.

/**
 * Whether a reported and an observed address are different addresses: false when either is
 * missing or the reported one is not an address at all (an existing client's "Unknown").
 */
export function addressesDiffer(reported: string | null, observed: string | null): boolean {
  const reportedAddress = reported === null ? null : canonicalAddress(reported);
  if (reportedAddress === null || observed === null) return false;
  return reportedAddress !== (canonicalAddress(observed) ?? observed);
}

/**
 * What kind of address a client reported: shown beside it, so that a private one is not read as a
 * lie. `special`: any other range of IANA's special-purpose registries (documentation,
 * benchmarking, multicast, reserved, translation…), or IPv6 outside global unicast (2000::/3):
 * no host on the internet has it, so it says nothing about where the client is.
 */
export type AddressKind = "loopback" | "private" | "link_local" | "public" | "special";

/** A BlockList of CIDR ranges (`address/prefix`, IPv4 or IPv6). */
export function blockList(ranges: readonly string[]): BlockList {
  const list = new BlockList();
  for (const range of ranges) {
    const [address, prefix] = range.split("/");
    list.addSubnet(address, Number(prefix), isIP(address) === 4 ? "ipv4" : "ipv6");
  }
  return list;
}

// The IANA IPv4 and IPv6 Special-Purpose Address Registries (RFC 6890), as ipaddr.js's range()
// names them; an address in none of them is `unicast`. The ranges a client's own interface may
// have get their own kind: its first interface is usually on a home or office network (RFC 1918,
// RFC 4193) or behind a carrier's NAT (RFC 6598).
const KIND_OF_RANGE: Partial<Record<string, Exclude<AddressKind, "special">>> = {
  unicast: "public",
  loopback: "loopback",
  private: "private",
  uniqueLocal: "private",
  carrierGradeNat: "private",
  linkLocal: "link_local",
};

// RFC 4291 §2.4, IANA's IPv6 Address Space: only 2000::/3 is allocated as global unicast.
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR("2000::/3");

/** The kind of an address in any spelling; null if it is not an address (an existing client's "Unknown"). */
export function addressKind(address: string): AddressKind | null {
  const canonical = canonicalAddress(address);
  if (canonical === null) return null;
  const parsed = ipaddr.parse(canonical);
  const range = parsed.range();
  if (range === "unicast" && parsed.kind() === "ipv6" && !parsed.match(GLOBAL_UNICAST)) return "special";
  return KIND_OF_RANGE[range] ?? "special";
}

/**
 * Whether the reported address deserves the page's flag: a public address that is not the one
 * the request came from. Honest clients report their first interface's private address (and a
 * phisher reports whatever they like), so only a public one that differs says anything; a
 * special-purpose one (a documentation range) is no host's on the internet.
 */
export function reportedAddressFlagged(reported: string | null, observed: string | null): boolean {
  return reported !== null && addressKind(reported) === "public" && addressesDiffer(reported, observed);
}

/** Leading bits two addresses must share to be on one network, per family. */
export type NetworkPrefixes = { ipv4: number; ipv6: number };

/** Whether two addresses (any spelling) are of one family and share its prefix; false if either is not an address. */
export function sameNetwork(first: string, second: string, prefixes: NetworkPrefixes): boolean {
  const [a, b] = [canonicalAddress(first), canonicalAddress(second)];
  if (a === null || b === null || isIP(a) !== isIP(b)) return false;
  const family = isIP(a) === 4 ? "ipv4" : "ipv6";
  const network = new BlockList();
  // A zone (fe80::1%eth0) is no part of the address BlockList reads.
  network.addSubnet(a.split("%")[0], family === "ipv4" ? prefixes.ipv4 : prefixes.ipv6, family);
  return network.check(b.split("%")[0], family);
}
