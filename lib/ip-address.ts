import { isIP } from "node:net";

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
