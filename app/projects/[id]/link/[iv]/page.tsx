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
import { findReachableProject } from "@/lib/projects/projects";
import { AddressFact, ObservedAddress, ReportedAddress } from "../../../../address-parts";
import { ApprovalActions, ApprovalCard, DecisionSection, DenyForm, OutcomeBanner, ProximityWarning, type Outcome } from "../../../../approval-parts";
import { WAITING } from "../../../../approval-words";
import { clientSoftware } from "@/lib/links/client-software";
import { ErrorAlert } from "../../../../form-parts";
import { PasskeyStepUp } from "../../../../passkey-step-up";
import { approvalsNeedPasskey } from "@/lib/passkeys/step-up";
import { FingerprintPending } from "../../key-pending";

// The page an existing client sends the person to for a link (docs/api.md, Compatibility with
// existing clients): who asks, for which project, and Approve or Deny.

export const metadata: Metadata = { title: "Approve a connection", referrer: "no-referrer" };

const ASKING = "An application asks for access";

/** The heading by state, and, once decided, the outcome banner's look and words (the init page's layout). */
const OUTCOMES: Record<Exclude<LinkApprovalView["state"], "waiting" | "not_asked">, { heading: string; outcome: Outcome; text: string }> = {
  approved: { heading: "Request approved", outcome: "done", text: "The application gets its access the next time it asks. You can close this page and return to your terminal." },
  linked: { heading: "Application connected", outcome: "done", text: "The application has its access. You can revoke it on the project's page." },
  denied: { heading: "Request denied", outcome: "denied", text: "The application gets no access." },
  expired: {
    heading: "Approval expired",
    outcome: "expired",
    text: "Your approval expired before the application came back for it. You can decide again while it asks.",
  },
};

const NOT_ASKED = "No application is asking right now. Start again in your terminal, then reload this page: you can decide only while it waits.";

/** Who asks and for which project, in one compact block; the link's own id (iv) only under Technical details. */
function WhoIsAsking({ view, proximity, warned }: { view: LinkApprovalView; proximity: Proximity | null; warned: boolean }) {
  const notReported = <span className="muted">not reported</span>;
  const notAsking = <span className="muted">no application is asking right now</span>;
  const { reported, observed } = view;
  return (
    <section className="approval-facts" aria-labelledby="who-asks">
      <h2 id="who-asks">Who is asking</h2>
      <dl className="facts">
        <dt>Application</dt>
        <dd>{observed === null ? notAsking : (clientSoftware(observed.userAgent) ?? notReported)}</dd>
        <dt>Device</dt>
        <dd>{reported === "unreadable" ? <span className="muted">not readable</span> : (reported?.senderDevice ?? notReported)}</dd>
        <dt>Address</dt>
        <dd>
          <AddressFact
            observed={observed === null ? notAsking : <ObservedAddress address={observed.address} proximity={proximity} />}
            reported={
              reported === "unreadable" ? (
                <span className="muted">nothing readable</span>
              ) : (
                <ReportedAddress address={reported?.senderIp ?? null} flagged={(observed?.addressMismatch ?? false) && !warned} short />
              )
            }
          />
        </dd>
        <dt>Project</dt>
        <dd>
          <Link href={`/projects/${view.project.id}`}>{view.project.name}</Link>
        </dd>
        <dt>Key fingerprint</dt>
        <dd>{view.project.fingerprint === null ? <FingerprintPending /> : <code>{view.project.fingerprint}</code>}</dd>
      </dl>
      <details className="more">
        <summary>Technical details</summary>
        <dl className="facts stacked">
          <dt>Software, as the application names itself</dt>
          <dd>{observed?.userAgent ?? notReported}</dd>
          <dt>Link id (iv)</dt>
          <dd>
            <code>{view.iv}</code>
          </dd>
        </dl>
        <p className="hint">The device and reported address come from the link you opened: anyone could have written them.</p>
      </details>
    </section>
  );
}

const DENY_FORM = "deny-form";

function Decision({
  view,
  team,
  action,
  nearby,
  stepUp,
}: {
  view: LinkApprovalView;
  /** The project's team; null for a personal project, the person's own. */
  team: string | null;
  action: (decision: "approve" | "deny") => string;
  nearby: boolean;
  stepUp: { projectId: string; iv: string } | null;
}) {
  // Nothing to decide unless a client asks now: an approval must reach the client that waits, not whoever holds the iv later.
  if (view.state === "linked" || !view.asking) return null;
  const deny = <DenyForm id={DENY_FORM} action={action("deny")} />;
  return (
    <DecisionSection>
      {/* From elsewhere only Deny: these clients show no code (ProximityWarning says so). */}
      {nearby ? (
        <form method="post" action={action("approve")} className="stack">
          <p>
            Approving gives this application access to {team === null ? "your project" : "the project"} <strong>{view.project.name}</strong>
            {team === null ? null : ` of the team ${team}`}: a signed credential to use it, and the project&apos;s public key. You can revoke it on the
            project&apos;s page.
          </p>
          {stepUp ? <PasskeyStepUp approval={{ kind: "link", ...stepUp }} /> : null}
          <ApprovalActions denyForm={DENY_FORM} approve />
        </form>
      ) : (
        <ApprovalActions denyForm={DENY_FORM} approve={false}>
          <p className="hint">From here you can only deny it. The application gets nothing.</p>
        </ApprovalActions>
      )}
      {deny}
    </DecisionSection>
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
        <h1>{ASKING}</h1>
        <section className="card" aria-labelledby="sign-in-heading">
          <h2 id="sign-in-heading">Sign in to continue</h2>
          <p>
            <Link href={withReturnTo("/signin", pagePath)}>Sign in</Link> to approve or deny this request. Approve it only if you started it yourself,
            just now. You will come back to this page.
          </p>
        </section>
      </>
    );
  }
  // Someone else's project reads exactly like one that does not exist.
  const view = await findLinkApprovalView(cfg, user.id, id, iv, metadata);
  if (view === null) notFound();
  // Someone who reaches the project is about to link a client: the key is needed now (it is
  // generated on first need).
  if (view.project.fingerprint === null) prepareProjectKey(cfg, view.project.id);
  const [path, search = ""] = pagePath.split("?");
  // The approve operation applies the same rule (lib/links/decide-link-approval.ts).
  const browserAddress = requestOrigin(cfg, await headers()).address;
  const proximity = view.observed === null ? null : proximityOf(cfg, view.observed.address, browserAddress);
  const action = (decision: "approve" | "deny") => `${path}/${decision}${search ? `?${search}` : ""}`;
  const decided = view.state === "waiting" || view.state === "not_asked" ? null : OUTCOMES[view.state];
  const warned = proximity !== null && !isNearby(proximity) && view.state !== "linked";
  return (
    <>
      {decided === null ? (
        <>
          <h1>{ASKING}</h1>
          <p role="status" className="approval-status">
            <span className="status status-pending">{view.state === "waiting" ? WAITING : NOT_ASKED}</span>
          </p>
        </>
      ) : (
        <OutcomeBanner outcome={decided.outcome} status>
          <h1>{decided.heading}</h1>
          <p>{decided.text}</p>
        </OutcomeBanner>
      )}
      <ErrorAlert message={pageMessage(query.error)} />
      <ApprovalCard warned={warned}>
        {warned && proximity !== null ? (
          <ProximityWarning proximity={proximity} clientAddress={view.observed?.address ?? null} browserAddress={browserAddress} showsCode={false} />
        ) : null}
        <WhoIsAsking view={view} proximity={proximity} warned={warned} />
        <Decision
          view={view}
          team={(await findReachableProject(user.id, view.project.id))?.team?.name ?? null}
          action={action}
          nearby={proximity !== null && isNearby(proximity)}
          stepUp={(await approvalsNeedPasskey(user.id)) ? { projectId: id, iv } : null}
        />
      </ApprovalCard>
    </>
  );
}
