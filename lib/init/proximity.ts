import type { Config } from "../config";
import { canonicalAddress, sameNetwork } from "../ip-address";

// Proximity (RFC 10027, Cross-Device Flows BCP, proximity checks): a phisher starts a
// login on their own machine and sends the victim its link. Both addresses compared here are
// ones the service observed itself (the trusted client address, lib/api/client-address.ts): where
// the init came from, and where the approving browser is. The client's own report is not used;
// a phisher writes what they like there.

/**
 * `same_address` or `same_network` (PROXIMITY_IPV4_PREFIX, PROXIMITY_IPV6_PREFIX): the browser
 * is where the client is. `elsewhere`: another network. `unknown`: either address was not seen.
 */
export type Proximity = "same_address" | "same_network" | "elsewhere" | "unknown";

export function proximityOf(cfg: Config, clientAddress: string | null, browserAddress: string | null): Proximity {
  const [client, browser] = [clientAddress === null ? null : canonicalAddress(clientAddress), browserAddress === null ? null : canonicalAddress(browserAddress)];
  if (client === null || browser === null) return "unknown";
  if (client === browser) return "same_address";
  return sameNetwork(client, browser, cfg.proximityPrefixes) ? "same_network" : "elsewhere";
}

export const isNearby = (proximity: Proximity): boolean => proximity === "same_address" || proximity === "same_network";
