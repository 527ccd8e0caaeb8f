import type { ReactNode } from "react";
import { isNearby, type Proximity } from "@/lib/init/proximity";

// One approval layout for the init page and a browser-approved link's page: the heading, one
// status line, at most one warning card, the facts in one compact block, then the decision card
// whose last row holds Deny and Approve side by side (right-aligned), so both are on the first
// screen. After a decision, an outcome banner (icon and colour) says what happened at a glance.

/**
 * The decision's last row: what goes with Approve (the access lifetime) on the left, Deny and
 * Approve on the right. Deny belongs to its own form (`denyForm`, a form with nothing in it:
 * DenyForm), so it never sends the approve form's fields nor waits for its required ones.
 */
export function ApprovalActions({ denyForm, approve, children }: { denyForm: string; approve: boolean; children?: ReactNode }) {
  return (
    <div className="approval-actions">
      {children}
      <div className="approval-buttons">
        <button type="submit" form={denyForm} className="danger">
          Deny
        </button>
        {approve ? <button type="submit">Approve</button> : null}
      </div>
    </div>
  );
}

/** The form Deny posts: empty, its button sits in ApprovalActions. */
export function DenyForm({ id, action }: { id: string; action: string }) {
  return <form id={id} method="post" action={action} hidden />;
}

/**
 * The approval card: at most one warning at its top (ProximityWarning; the card's border then
 * turns red), the facts, then the decision. One card, so the warning, what it is about and the
 * buttons read as one thing, and Approve and Deny stay on the first screen.
 */
export function ApprovalCard({ warned, children }: { warned: boolean; children: ReactNode }) {
  return <div className={warned ? "card approval warned" : "card approval"}>{children}</div>;
}

/** The decision's part of the approval card; its heading is for screen readers, the buttons say the rest. */
export function DecisionSection({ children }: { children: ReactNode }) {
  return (
    <section className="approval-decision" aria-labelledby="decision-heading">
      <h2 id="decision-heading" className="visually-hidden">
        Your decision
      </h2>
      {children}
    </section>
  );
}

/**
 * Where the request came from against where this browser is, both as the service saw them
 * (lib/init/proximity.ts): from the same network, nothing here ("(from your network)" in the
 * facts says it quietly); otherwise the page's one warning, naming both addresses, what a
 * phisher's link looks like, and what Approve then needs.
 */
export function ProximityWarning({
  proximity,
  clientAddress,
  browserAddress,
  showsCode,
}: {
  proximity: Proximity;
  clientAddress: string | null;
  browserAddress: string | null;
  /** False: the application shows no code, and Approve is not offered from elsewhere. */
  showsCode: boolean;
}) {
  if (isNearby(proximity)) return null;
  const unknown = "an address this service could not see";
  return (
    <section className="approval-warning" aria-labelledby="proximity-heading">
      <h2 id="proximity-heading">
        <WarningIcon />
        Not from your network
      </h2>
      <p>
        It came from <strong>{clientAddress ?? unknown}</strong>, this browser is at <strong>{browserAddress ?? unknown}</strong>. A link someone sent
        you is phishing: deny it.
      </p>
      {showsCode ? (
        <p>Started it yourself elsewhere (a server, a VPN)? Type the code your terminal shows, never one sent to you.</p>
      ) : (
        <p>
          This application shows no code, so it cannot be approved from here. If you started it, open this link on the network where you ran it, or
          start again with an application that shows a code.
        </p>
      )}
    </section>
  );
}

export type Outcome = "done" | "denied" | "expired";

/** The outcome at a glance: an icon and a colour, then what it means. `role`: announced when it is the page's only status. */
export function OutcomeBanner({ outcome, children, status = false }: { outcome: Outcome; children: ReactNode; status?: boolean }) {
  return (
    <div className={`outcome outcome-${outcome}`} role={status ? "status" : undefined}>
      <OutcomeIcon outcome={outcome} />
      <div className="outcome-text">{children}</div>
    </div>
  );
}

function OutcomeIcon({ outcome }: { outcome: Outcome }) {
  return (
    <svg className="outcome-icon" viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" focusable="false">
      <circle cx="12" cy="12" r="10.5" fill="none" stroke="currentColor" strokeWidth="2" />
      {outcome === "done" ? <path d="M7 12.5l3.2 3.2L17 9" fill="none" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" strokeLinejoin="round" /> : null}
      {outcome === "denied" ? <path d="M8.5 8.5l7 7M15.5 8.5l-7 7" fill="none" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" /> : null}
      {outcome === "expired" ? <path d="M12 7v5.5l3.5 2" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" /> : null}
    </svg>
  );
}

function WarningIcon() {
  return (
    <svg className="warning-icon" viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
      <path d="M12 3L2 20.5h20z" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />
      <path d="M12 10v4.5" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
      <circle cx="12" cy="17.3" r="1.2" fill="currentColor" />
    </svg>
  );
}
