import { canonicalAddress } from "../ip-address";

// The init page flags a client whose reported address differs from the one its request came
// from. The two are compared as addresses (lib/ip-address.ts), not as strings.

/**
 * Whether a reported and an observed address are different addresses: false when either is
 * missing or the reported one is not an address at all (an existing client's "Unknown").
 */
export function addressesDiffer(reported: string | null, observed: string | null): boolean {
  const reportedAddress = reported === null ? null : canonicalAddress(reported);
  if (reportedAddress === null || observed === null) return false;
  return reportedAddress !== (canonicalAddress(observed) ?? observed);
}
