import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { recordInitOpened } from "@/lib/activity/record-activity";
import { requestOrigin } from "@/lib/api/client-address";
import { currentUser } from "@/lib/api/page-session";
import { withReturnTo } from "@/lib/api/return-to";
import { passwordSignUpOpen } from "@/lib/auth/account-policy";
import { reportedApproval, UNDO_APPROVAL_MS, type ReportedApproval } from "@/lib/approvals/report-approval";
import { config } from "@/lib/config";
import { PROJECT_NAME_MAX, USER_CODE_INPUT_MAX } from "@/lib/field-lengths";
import { pageMessage } from "@/lib/errors";
import { lifetimeText, type AccessLifetime } from "@/lib/init/access-lifetime";
import { codeCheckMode, type CodeCheckMode } from "@/lib/init/code-check-mode";
import { codeEnteredBy } from "@/lib/init/code-entry";
import { findInitView, type InitView } from "@/lib/init/init-view";
import type { InitStatus } from "@/lib/init/init-lifecycle";
import { proximityOf, type Proximity } from "@/lib/init/proximity";
import { listProjects } from "@/lib/projects/projects";
import { ClientIdNote } from "./client-id-note";
import { LiveStatus } from "./live-status";
import { ObservedAddress, ProximityNotice, ReportedAddress } from "../../address-parts";
import { ReportControl, ReportedNotice } from "../../approval-report";
import { ErrorAlert } from "../../form-parts";
import { PasskeyStepUp } from "../../passkey-step-up";
import { ProviderSignIn } from "../../provider-sign-in";
import { approvalsNeedPasskey } from "@/lib/passkeys/step-up";

/** The page's heading says the request's state; the live status re-renders the page when it changes. */
const HEADINGS: Record<InitStatus, string> = {
  pending: "A client asks to be linked",
  done: "Request approved",
  denied: "Request denied",
  expired: "Request expired",
};

// The title (generateMetadata) and the page both read the init, as the signed-in person may see it: once per request.
const initView = cache(async (id: string) => {
  const user = await currentUser();
  return { user, init: await findInitView(id, user?.id ?? null) };
});

/** The tab's title says the request's state too: a person with many tabs finds it. */
export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const { init } = await initView((await params).id);
  return { title: init === null ? "Not found" : HEADINGS[init.status], referrer: "no-referrer" };
}

function minutesAgo(ms: number): string {
  const minutes = Math.floor((Date.now() - ms) / 60_000);
  return minutes < 1 ? "just now" : minutes === 1 ? "1 minute ago" : `${minutes} minutes ago`;
}

/** Who asks: the application always; the device and addresses only when the viewer may see them (lib/init/init-view.ts). */
function WhoIsAsking({ init, proximity }: { init: InitView; proximity: Proximity | null }) {
  const notReported = <span className="muted">not reported</span>;
  const { details } = init;
  return (
    <section className="card" aria-labelledby="who-asks">
      <h2 id="who-asks">{init.status === "pending" ? "Who is asking" : "Who asked"}</h2>
      <dl className="facts">
        <dt>Application</dt>
        <dd>
          {init.sender}
          <ClientIdNote name={init.sender} />
        </dd>
        {details === null ? null : (
          <>
            <dt>Device</dt>
            <dd>{details.senderDevice ?? notReported}</dd>
            <dt>Operating system</dt>
            <dd>{details.senderOs ?? notReported}</dd>
            <dt>Reported address</dt>
            <dd>
              <ReportedAddress address={details.senderIp} flagged={details.addressMismatch} />
            </dd>
            <dt>Request came from</dt>
            <dd>
              <ObservedAddress address={details.observedIp} proximity={proximity} />
            </dd>
          </>
        )}
        <dt>Started</dt>
        <dd>
          <time dateTime={new Date(init.createdAt).toISOString()}>{minutesAgo(init.createdAt)}</time>
        </dd>
      </dl>
    </section>
  );
}

const WARNING = "Approve only if you just started this yourself. Otherwise, deny it.";

/**
 * How long the client's access lasts (ACCESS_LIFETIME_CHOICES), on the Approve button's row: one
 * row even on a phone, so Approve stays on the first screen.
 */
function ApproveRow({ choices, preselected }: { choices: AccessLifetime[]; preselected: AccessLifetime }) {
  return (
    <div className="approve-row">
      {choices.length === 1 ? (
        <span>Access for {lifetimeText(preselected.ms)}</span>
      ) : (
        <label>
          Access for
          <select name="access_lifetime" defaultValue={preselected.label}>
            {choices.map((choice) => (
              <option key={choice.label} value={choice.label}>
                {lifetimeText(choice.ms)}
              </option>
            ))}
          </select>
        </label>
      )}
      <button type="submit">Approve</button>
    </div>
  );
}

/**
 * The code check the approve operation makes (lib/init/code-check.ts), worded for what the
 * client declared: the code typed where it shows one (never filled in from the URL: a link's
 * `?user_code=` is a code the person never typed); where it shows none, a box saying that the
 * person started it, naming what; and nothing more once they typed the code at /device.
 */
function CodeCheck({ init, mode, codeEntered }: { init: InitView; mode: Exclude<CodeCheckMode, "refused">; codeEntered: boolean }) {
  if (codeEntered) {
    return (
      <p className="code-check">
        You typed this request&apos;s code on the Enter a code page: <span className="user-code">{init.userCode}</span>
      </p>
    );
  }
  if (mode === "confirm") {
    const device = init.details?.senderDevice ?? null;
    return (
      <label className="check code-check">
        <input type="checkbox" name="code_confirmed" value="yes" required />
        <span>
          I started this myself: <strong>{init.sender}</strong>
          {device === null ? null : (
            <>
              {" "}
              on <strong>{device}</strong>
            </>
          )}
          , {minutesAgo(init.createdAt)}.
        </span>
      </label>
    );
  }
  return (
    <label>
      Code shown in your terminal
      <input name="user_code" required autoComplete="off" autoCapitalize="characters" spellCheck={false} maxLength={USER_CODE_INPUT_MAX} placeholder="XXXX-XXXX" />
    </label>
  );
}

/** A new project refused by its limits (lib/projects/new-project.ts): the page then offers the person's own projects first. */
const NEW_PROJECT_REFUSALS: ReadonlySet<string> = new Set(["too_many_new_projects", "project_limit_reached"]);

function Decision({
  init,
  projects,
  codeCheck,
  preferExisting,
  codeEntered,
  needsPasskey,
  lifetimes,
}: {
  init: InitView;
  projects: { id: string; name: string }[];
  codeCheck: CodeCheckMode;
  lifetimes: { choices: AccessLifetime[]; preselected: AccessLifetime };
  preferExisting: boolean;
  /** This browser session typed the init's code at /device (lib/init/code-entry.ts). */
  codeEntered: boolean;
  /** The account's approvals need a passkey (lib/passkeys/step-up.ts). */
  needsPasskey: boolean;
}) {
  const defaultName = init.sender.slice(0, PROJECT_NAME_MAX);
  // Nothing to approve with (ProximityNotice says why): only Deny.
  if (codeCheck === "refused") return <DenyForm id={init.id} />;
  return (
    <>
      <form method="post" action={`/init/${init.id}/approve`} className="card stack" aria-labelledby="approve-heading">
        <h2 id="approve-heading">Approve</h2>
        <p className="warning">{WARNING}</p>
        <CodeCheck init={init} mode={codeCheck} codeEntered={codeEntered} />
        {projects.length === 0 ? (
          // No project to choose from: a new one, named here.
          <>
            <input type="hidden" name="project" value="new" />
            <label>
              New project name
              <input name="name" defaultValue={defaultName} maxLength={PROJECT_NAME_MAX} required />
            </label>
          </>
        ) : (
          <fieldset>
            <legend>Give the client access to</legend>
            <div className="new-project">
              <label className="check">
                <input type="radio" name="project" value="new" defaultChecked={!preferExisting} /> a new project named
              </label>
              <input name="name" defaultValue={defaultName} maxLength={PROJECT_NAME_MAX} aria-label="New project name" />
            </div>
            {projects.map((project, at) => (
              <label className="check" key={project.id}>
                <input type="radio" name="project" value={project.id} defaultChecked={preferExisting && at === 0} /> {project.name}
              </label>
            ))}
          </fieldset>
        )}
        {needsPasskey ? <PasskeyStepUp approval={{ kind: "init", id: init.id }} /> : null}
        <ApproveRow choices={lifetimes.choices} preselected={lifetimes.preselected} />
      </form>
      <DenyForm id={init.id} />
    </>
  );
}

function DenyForm({ id }: { id: string }) {
  return (
    <form method="post" action={`/init/${id}/deny`} className="card stack" aria-labelledby="deny-heading">
      <h2 id="deny-heading">Not you?</h2>
      <p>If you did not start this, deny it. The client gets nothing.</p>
      <button type="submit" className="danger">
        Deny
      </button>
    </form>
  );
}

/** Who decided, as a signed-in viewer may know it: you, or another account (never which). */
function decidedBy(deciderId: string | null, viewerId: string | null): string {
  if (viewerId === null || deciderId === null) return "";
  return deciderId === viewerId ? " by you" : " by another account";
}

/** The approver may undo an approval for UNDO_APPROVAL_MS after it; later, "This wasn't me" in the activity does the same. */
function mayUndo(init: InitView, viewerId: string | null, now: number): boolean {
  return init.status === "done" && viewerId !== null && init.approvedById === viewerId && init.decidedAt !== null && now - init.decidedAt < UNDO_APPROVAL_MS;
}

function Outcome({ init, viewerId, report }: { init: InitView; viewerId: string | null; report: ReportedApproval | null }) {
  if (report !== null) {
    return (
      <section className="card" aria-label="Outcome">
        <p>You took this approval back (&ldquo;This wasn&apos;t me&rdquo;). The client has no access any more: it has to start again, and be approved again.</p>
        <ReportedNotice report={report} />
      </section>
    );
  }
  if (init.status === "done") {
    const mine = init.project !== null && init.approvedById === viewerId;
    return (
      <section className="card" aria-label="Outcome">
        <p id="approved-outcome">This request has been approved{decidedBy(init.approvedById, viewerId)}.</p>
        {mine && init.project ? (
          <p>
            The client now has access to <Link href={`/projects/${init.project.id}`}>{init.project.name}</Link>. Once it has linked itself, the link is
            listed on the project&apos;s page.
          </p>
        ) : null}
        <p>You can close this page and return to your terminal.</p>
        {mayUndo(init, viewerId, Date.now()) ? (
          <>
            <p className="hint">Not what you meant? For {UNDO_APPROVAL_MS / 60_000} minutes you can undo it here; later, use &ldquo;This wasn&apos;t me&rdquo; in your activity.</p>
            <ReportControl initId={init.id} from="init" describedBy="approved-outcome" label="Undo…" />
          </>
        ) : null}
      </section>
    );
  }
  if (init.status === "denied") {
    return (
      <section className="card" aria-label="Outcome">
        <p>
          This request was denied{decidedBy(init.deniedById, viewerId)}. The client did not get access. If you meant to approve it, start again in
          your terminal.
        </p>
      </section>
    );
  }
  return (
    <section className="card" aria-label="Outcome">
      <p>This request expired before it was approved. Start again in your terminal to get a new link.</p>
    </section>
  );
}

export default async function InitPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id } = await params;
  const { user, init } = await initView(id);
  if (init === null) notFound();
  const query = await searchParams;
  const error = pageMessage(query.error);
  const returnTo = `/init/${init.id}`;
  // A pending request a signed-in person has seen is in their activity, and so is its expiry.
  if (user !== null && init.status === "pending") await recordInitOpened(user.id, init.id);
  const cfg = config();
  // The approve operation applies the same rule to the same two addresses (lib/init/approve-init.ts).
  const browserAddress = requestOrigin(cfg, await headers()).address;
  const proximity = init.details === null ? null : proximityOf(cfg, init.details.observedIp, browserAddress);
  const codeCheck = codeCheckMode(cfg.initCodeCheck, init.userCodeShown, proximity ?? "unknown");

  return (
    <>
      <h1>{HEADINGS[init.status]}</h1>
      <LiveStatus id={init.id} initialStatus={init.status} intervalMs={init.intervalMs} expiresAt={init.expiresAt} signedIn={user !== null} />
      <ErrorAlert message={error} />
      {/* Decided or expired: what happened comes first, then who had asked, for the account that decided only. */}
      {init.status !== "pending" ? (
        <>
          <Outcome init={init} viewerId={user?.id ?? null} report={user !== null && init.approvedById === user.id ? await reportedApproval(user.id, init.id) : null} />
          {init.details === null ? null : <WhoIsAsking init={init} proximity={null} />}
        </>
      ) : (
        <>
          <WhoIsAsking init={init} proximity={proximity} />
          {proximity === null ? null : (
            <ProximityNotice proximity={proximity} clientAddress={init.details?.observedIp ?? null} browserAddress={browserAddress} showsCode={codeCheck !== "refused"} />
          )}
          {user === null ? (
            <section className="card stack">
              <h2>Sign in to continue</h2>
              <p className="warning">{WARNING}</p>
              <p>
                <Link href={withReturnTo("/signin", returnTo)}>Sign in</Link>
                {passwordSignUpOpen(cfg) ? (
                  <>
                    {" "}
                    or <Link href={withReturnTo("/signup", returnTo)}>create an account</Link>
                  </>
                ) : null}{" "}
                to approve or deny. You will come back to this page, and it will show the device and addresses the request came from, and what to
                check before you approve.
              </p>
              {cfg.oidc === null ? null : <ProviderSignIn name={cfg.oidc.displayName} returnTo={returnTo} />}
            </section>
          ) : (
            <Decision
              init={init}
              projects={await listProjects(user.id)}
              codeCheck={codeCheck}
              preferExisting={typeof query.error === "string" && NEW_PROJECT_REFUSALS.has(query.error)}
              codeEntered={await codeEnteredBy(init.id, user.sessionId)}
              needsPasskey={await approvalsNeedPasskey(user.id)}
              lifetimes={cfg.accessLifetimes}
            />
          )}
        </>
      )}
    </>
  );
}
