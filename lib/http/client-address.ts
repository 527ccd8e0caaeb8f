import { isIP } from "node:net";
import type { Config } from "../config";
import type { RequestOrigin } from "../request-origin";
import { PEER_ADDRESS_HEADER } from "../runtime/request-context.mjs";

function normalise(address: string): string | null {
  const trimmed = address.trim();
  const unmapped = trimmed.toLowerCase().startsWith("::ffff:") && isIP(trimmed.slice(7)) === 4 ? trimmed.slice(7) : trimmed;
  return isIP(unmapped) ? unmapped : null;
}

/**
 * The address a request really came from. With no trusted proxy that is the TCP peer; behind
 * `trustProxyHops` proxies it is the entry of X-Forwarded-For that the outermost trusted proxy
 * saw, so a client cannot pick its own address by sending the header itself.
 */
export function clientAddress(headers: Headers, trustProxyHops: number): string | null {
  const peer = headers.get(PEER_ADDRESS_HEADER);
  if (peer === null) return null;
  const chain = [...(headers.get("x-forwarded-for") ?? "").split(",").filter((part) => part.trim() !== ""), peer];
  const index = Math.max(0, chain.length - 1 - trustProxyHops);
  return normalise(chain[index]);
}

export function requestOrigin(cfg: Config, headers: Headers): RequestOrigin {
  return { address: clientAddress(headers, cfg.trustProxyHops), userAgent: headers.get("user-agent") };
}
