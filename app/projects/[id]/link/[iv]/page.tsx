import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requestOrigin } from "@/lib/api/client-address";
import { currentUser } from "@/lib/api/page-session";
import { withReturnTo } from "@/lib/api/return-to";
import { config } from "@/lib/config";
import { pageMessage } from "@/lib/errors";
import { isNearby, proximityOf, type Proximity } from "@/lib/init/proximity";
import { findLinkApprovalView, linkApprovalPagePath, type LinkApprovalView } from "@/lib/links/link-approval-view";
import { prepareProjectKey } from "@/lib/projects/project-keys";
import { ObservedAddress, ProximityNotice, ReportedAddress } from "../../../../address-parts";
import { ErrorAlert } from "../../../../form-parts";
import { PasskeyStepUp } from "../../../../passkey-step-up";
import { approvalsNeedPasskey } from "@/lib/passkeys/step-up";
import { FingerprintPending } from "../../key-pending";

// The page an existing client sends the person to for a link (docs/api.md, Compatibility with
// existing clients): who asks, for which project, and Approve or Deny.

export const metadata: Metadata = { title: "Approve a link", referrer: "no-referrer" };

const IV_SHOWN = 12;

function WhoIsAsking({ view, proximity }: { view: LinkApprovalView; proximity: Proximity | null }) {
  const notReported = <span className="muted">not reported</span>;
  const { reported, observed } = view;
  return (
    <section className="card" aria-labelledby="who-asks">
      <h2 id="who-asks">Who is asking</h2>
      <dl className="facts">
        <dt>Device</dt>
        <dd>{reported === "unreadable" ? <span className="muted">not readable</span> : (reported?.senderDevice ?? notReported)}</dd>
        <dt>Reported address</dt>
        <dd>
          {reported === "unreadable" ? (
            <span className="muted">not readable</span>
          ) : (
            <ReportedAddress address={reported?.senderIp ?? null} flagged={observed?.addressMismatch ?? false} />
          )}
        </dd>
        <dt>Request came from</dt>
        <dd>{observed === null ? <span className="muted">no client is asking right now</span> : <ObservedAddress address={observed.address} proximity={proximity} />}</dd>
        <dt>Client software</dt>
        <dd>{observed === null ? <span className="muted">no client is asking right now</span> : (observed.userAgent ?? notReported)}</dd>
        <dt>iv</dt>
        <dd>
          <code title={view.iv}>{view.iv.slice(0, IV_SHOWN)}…</code>
        </dd>
      </dl>
      <p className="hint">The device and reported address come from the link you opened: anyone could have written them.</p>
    </section>
  );
}

function ProjectFacts({ view }: { view: LinkApprovalView }) {
  return (
    <section className="card" aria-labelledby="project-heading">
      <h2 id="project-heading">Project</h2>
      <dl className="facts">
        <dt>Name</dt>
        <dd>
          <Link href={`/projects/${view.project.id}`}>{view.project.name}</Link>
        </dd>
        <dt>Key fingerprint</dt>
        <dd>{view.project.fingerprint === null ? <FingerprintPending /> : <code>{view.project.fingerprint}</code>}</dd>
      </dl>
    </section>
  );
}

const STATE_TEXT: Record<LinkApprovalView["state"], string> = {
  not_asked: "No client is asking for this link right now. Start the link in your terminal, then reload this page: you can decide only while the client waits.",
  waiting: "The client is waiting for your decision.",
  approved: "Approved. The client collects the link the next time it asks.",
  denied: "Denied. The client does not get this link.",
  expired: "Your decision expired before the client collected the link. Decide again while the client asks for it.",
  linked: "Linked. The client has its link; you can revoke it on the project page.",
};

function Decision({ view, action, nearby, stepUp }: { view: LinkApprovalView; action: (decision: "approve" | "deny") => string; nearby: boolean; stepUp: { projectId: string; iv: string } | null }) {
  // Nothing to decide unless a client asks now: an approval must reach the client that waits, not whoever holds the iv later.
  if (view.state === "linked" || !view.asking) return null;
  return (
    <>
      {/* From elsewhere only Deny: these clients show no code (ProximityNotice says so). */}
      {nearby ? (
        <form method="post" action={action("approve")} className="card stack" aria-labelledby="approve-heading">
          <h2 id="approve-heading">Approve</h2>
          <p className="warning">Approve only if you just started this yourself. Otherwise, deny it.</p>
          <p>The client gets a link to {view.project.name}: a bearer for the project and its public key.</p>
          {stepUp ? <PasskeyStepUp approval={{ kind: "link", ...stepUp }} /> : null}
          <button type="submit">Approve</button>
        </form>
      ) : null}
      <form method="post" action={action("deny")} className="card stack" aria-labelledby="deny-heading">
        <h2 id="deny-heading">Not you?</h2>
        <button type="submit" className="danger">
          Deny
        </button>
      </form>
    </>
  );
}

export default async function LinkApprovalPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string; iv: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const cfg = config();
  if (!cfg.legacyLinkApproval.enabled) notFound();
  const [{ id, iv }, query, user] = await Promise.all([params, searchParams, currentUser()]);
  const metadata = typeof query.metadata === "string" ? query.metadata : null;
  const pagePath = linkApprovalPagePath(id, iv, metadata);
  if (user === null) {
    return (
      <>
        <h1>A client asks to be linked</h1>
        <section className="card">
          <h2>Sign in to continue</h2>
          <p>
            <Link href={withReturnTo("/signin", pagePath)}>Sign in</Link> to approve or deny. You will come back to this page.
          </p>
        </section>
      </>
    );
  }
  // Someone else's project reads exactly like one that does not exist.
  const view = await findLinkApprovalView(cfg, user.id, id, iv, metadata);
  if (view === null) notFound();
  // The owner is about to link a client: the key is needed now (it is generated on first need).
  if (view.project.fingerprint === null) prepareProjectKey(cfg, view.project.id);
  const [path, search = ""] = pagePath.split("?");
  // The approve operation applies the same rule (lib/links/decide-link-approval.ts).
  const browserAddress = requestOrigin(cfg, await headers()).address;
  const proximity = view.observed === null ? null : proximityOf(cfg, view.observed.address, browserAddress);
  const action = (decision: "approve" | "deny") => `${path}/${decision}${search ? `?${search}` : ""}`;
  return (
    <>
      <h1>A client asks to be linked</h1>
      <ErrorAlert message={pageMessage(query.error)} />
      <p role="status" className={`status status-${view.state === "approved" || view.state === "linked" ? "done" : view.state === "denied" ? "denied" : "pending"}`}>
        {STATE_TEXT[view.state]}
      </p>
      <WhoIsAsking view={view} proximity={proximity} />
      {proximity === null || view.state === "linked" ? null : (
        <ProximityNotice proximity={proximity} clientAddress={view.observed?.address ?? null} browserAddress={browserAddress} showsCode={false} />
      )}
      <ProjectFacts view={view} />
      <Decision view={view} action={action} nearby={proximity !== null && isNearby(proximity)} stepUp={(await approvalsNeedPasskey(user.id)) ? { projectId: id, iv } : null} />
    </>
  );
}
