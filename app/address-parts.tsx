import { addressKind, type AddressKind } from "@/lib/ip-address";

// The address a client reported about itself, as every page shows it (issue 28): labelled as the
// client's report, with its kind, and flagged only when it is a public address that differs from
// the one its request came from (lib/ip-address.ts, reportedAddressFlagged). Honest clients report
// their first interface's private address, so a private or loopback one is said, not flagged.

const KIND_LABELS: Record<AddressKind, string> = {
  loopback: "loopback: the client's own machine",
  private: "a private network address",
  link_local: "a link-local address",
  public: "a public address",
};

export function ReportedAddress({ address, flagged }: { address: string | null; flagged: boolean }) {
  if (address === null) return <span className="muted">not reported</span>;
  const kind = addressKind(address);
  return (
    <>
      {address} <span className="muted">({kind === null ? "not an address" : KIND_LABELS[kind]})</span>
      {flagged ? <strong className="flag"> Differs from the address the request came from.</strong> : null}
    </>
  );
}
