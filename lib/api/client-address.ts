import { isIP, type BlockList } from "node:net";
import type { Config } from "../config";
import { blockList, canonicalAddress } from "../ip-address";
import type { RequestOrigin } from "../request-origin";
import { PEER_ADDRESS_HEADER } from "../../server/request-context.mjs";
import { observedText } from "../text";

/** The proxies whose X-Forwarded-For is believed (server/config.mjs: TRUSTED_PROXIES). */
export type TrustedProxies = Config["trustedProxies"];

// One BlockList per configuration's list: built once, consulted on every request that reads an address.
const lists = new WeakMap<readonly string[], BlockList>();

function trustedList(ranges: readonly string[]): BlockList {
  let list = lists.get(ranges);
  if (list === undefined) {
    list = blockList(ranges);
    lists.set(ranges, list);
  }
  return list;
}

const isTrusted = (address: string, ranges: readonly string[]) => trustedList(ranges).check(address, isIP(address) === 4 ? "ipv4" : "ipv6");

// Some balancers write the client's port too: `203.0.113.5:4431`, `[2001:db8::5]:4431`.
const IPV4_WITH_PORT = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/;
const BRACKETED_IPV6 = /^\[([^\]]+)\](?::\d{1,5})?$/;

/** One entry of X-Forwarded-For as an address, its port dropped; null when it is none ("unknown", garbage). */
export function forwardedAddress(entry: string): string | null {
  const text = entry.trim();
  const bare = IPV4_WITH_PORT.exec(text)?.[1] ?? BRACKETED_IPV6.exec(text)?.[1] ?? text;
  return canonicalAddress(bare);
}

/**
 * The address a request really came from: the TCP peer, unless the peer is a trusted proxy; then
 * X-Forwarded-For is walked from the right (each proxy appends the address it saw) for as long as
 * each hop is a trusted proxy, and the first one that is not is the client. A client that reaches
 * the port directly is not a trusted proxy, so what it writes in the header is never read.
 */
export function clientAddress(headers: Headers, proxies: TrustedProxies): string | null {
  const peer = headers.get(PEER_ADDRESS_HEADER);
  if (peer === null) return null;
  let address = canonicalAddress(peer);
  if (proxies.ranges.length === 0) return address;
  const forwarded = (headers.get("x-forwarded-for") ?? "").split(",").filter((entry) => entry.trim() !== "");
  for (let hops = 0; address !== null && hops < proxies.maxHops && forwarded.length > 0 && isTrusted(address, proxies.ranges); hops++) {
    // What a trusted proxy wrote: if it is not an address, the client's address is unknown.
    address = forwardedAddress(forwarded.pop() ?? "");
  }
  return address;
}

/** A User-Agent longer than this is cut: it is shown, never parsed. */
const USER_AGENT_MAX = 300;

export function requestOrigin(cfg: Config, headers: Headers): RequestOrigin {
  return { address: clientAddress(headers, cfg.trustedProxies), userAgent: observedText(headers.get("user-agent"), USER_AGENT_MAX) };
}
