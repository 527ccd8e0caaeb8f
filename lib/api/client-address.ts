import type { Config } from "../config";
import { canonicalAddress } from "../ip-address";
import type { RequestOrigin } from "../request-origin";
import { PEER_ADDRESS_HEADER } from "../../server/request-context.mjs";
import { observedText } from "../text";

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
  return canonicalAddress(chain[index]);
}

/** A User-Agent longer than this is cut: it is shown, never parsed. */
const USER_AGENT_MAX = 300;

export function requestOrigin(cfg: Config, headers: Headers): RequestOrigin {
  return { address: clientAddress(headers, cfg.trustProxyHops), userAgent: observedText(headers.get("user-agent"), USER_AGENT_MAX) };
}
