import type { ReactNode } from "react";
import { isNearby, type Proximity } from "@/lib/init/proximity";
import { addressKind, type AddressKind } from "@/lib/ip-address";

// The address a client reported about itself, as every page shows it: labelled as the
// client's report, with its kind, and flagged only when it is a public address that differs from
// the one its request came from (lib/ip-address.ts, reportedAddressFlagged). Honest clients report
// their first interface's private address, so a private or loopback one is said, not flagged.

const KIND_LABELS: Record<AddressKind, string> = {
  loopback: "loopback",
  private: "private",
  link_local: "link-local",
  public: "public",
  special: "special-purpose",
};

export function ReportedAddress({ address, flagged, short = false }: { address: string | null; flagged: boolean; short?: boolean }) {
  if (address === null) return <span className="muted">{short ? "no address" : "not reported"}</span>;
  const kind = addressKind(address);
  // Short: where the fact's wording already says the client reported it (the approval pages' "reports …").
  const said = short ? "" : ", reported by the application";
  return (
    <>
      {address} <span className="muted">({kind === null ? "not an address" : KIND_LABELS[kind]}{said})</span>
      {flagged ? <strong className="flag"> Not where the request came from.</strong> : null}
    </>
  );
}

/** Where the request came from, as the service saw it; "(from your network)" when the viewing browser is there too. */
export function ObservedAddress({ address, proximity }: { address: string | null; proximity: Proximity | null }) {
  return (
    <>
      {address ?? <span className="muted">unknown</span>}
      {proximity !== null && isNearby(proximity) ? <span className="muted"> (from your network)</span> : null}
    </>
  );
}

/** The approval pages' one address fact: where the request came from, then, on a line of its own, what the application reports. */
export function AddressFact({ observed, reported }: { observed: ReactNode; reported: ReactNode }) {
  return (
    <>
      {observed}
      <span className="reported-line">
        <span className="muted">reports</span> {reported}
      </span>
    </>
  );
}
