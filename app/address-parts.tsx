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

export function ReportedAddress({ address, flagged }: { address: string | null; flagged: boolean }) {
  if (address === null) return <span className="muted">not reported</span>;
  const kind = addressKind(address);
  return (
    <>
      {address} <span className="muted">({kind === null ? "not an address" : KIND_LABELS[kind]}, reported by the client)</span>
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

/**
 * Where the request came from against where this browser is, both as the service saw them
 * (lib/init/proximity.ts): from the same network, nothing here (ObservedAddress says it quietly);
 * otherwise a warning naming both addresses, what a phisher's link looks like, and what Approve
 * then needs. The init page and the browser-approved link's page show it alike.
 */
export function ProximityNotice({
  proximity,
  clientAddress,
  browserAddress,
  showsCode,
}: {
  proximity: Proximity;
  clientAddress: string | null;
  browserAddress: string | null;
  /** False: the client shows no code, and Approve is not offered from elsewhere. */
  showsCode: boolean;
}) {
  if (isNearby(proximity)) return null;
  const unknown = "an address the service could not see";
  return (
    <section className="card warning-card stack" aria-labelledby="proximity-heading">
      <h2 id="proximity-heading">This request did not come from your network</h2>
      <p>
        The client&apos;s request came from <strong>{clientAddress ?? unknown}</strong>, and this browser is at <strong>{browserAddress ?? unknown}</strong>.
      </p>
      <p>
        This is what a phishing link looks like: someone starts a login on their own machine and sends you its link, often with a message asking you to
        confirm or verify something, and sometimes with its code. Approving it gives them access to your project.
      </p>
      {!showsCode ? (
        <p className="warning">
          This client shows no code, so nothing here can show that you started it, and it cannot be approved from here. If you did, open this link in
          a browser on the network of the machine where you ran the command, or start again with a client that shows a code. If you did not, deny it.
        </p>
      ) : (
        <p className="warning">
          If you started it yourself on another machine (a remote server, a VPN), type the code your terminal shows. Never type a code someone sent
          you.
        </p>
      )}
    </section>
  );
}
