import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache, type ReactNode } from "react";
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
import { isAuthorizingBrowser } from "@/lib/init/authorizing-browser";
import { codeEnteredBy } from "@/lib/init/code-entry";
import { findInitView, type InitView } from "@/lib/init/init-view";
import type { InitStatus } from "@/lib/init/init-lifecycle";
import { isNearby, proximityOf, type Proximity } from "@/lib/init/proximity";
import { findReachableProject, listProjects, type ProjectSummary } from "@/lib/projects/projects";
import { hasRole } from "@/lib/teams/roles";
import { listTeams } from "@/lib/teams/teams";
import { clientReturn, type ClientReturn } from "@/lib/oauth/authorization-code";
import { ClientIdNote } from "./client-id-note";
import { LiveStatus } from "./live-status";
import { ReturnToClient } from "./return-to-client";
import { AddressFact, ObservedAddress, ReportedAddress } from "../../address-parts";
import { ApprovalActions, ApprovalCard, DecisionSection, DenyForm, OutcomeBanner, ProximityWarning } from "../../approval-parts";
import { ReportControl, ReportedNotice } from "../../approval-report";
import { ErrorAlert } from "../../form-parts";
import { groupByTeam, groupLabel } from "../../project-groups";
import { PasskeyStepUp } from "../../passkey-step-up";
import { ProviderSignIn } from "../../provider-sign-in";
import { approvalsNeedPasskey } from "@/lib/passkeys/step-up";

/**
 * The page's heading says the request's state in words for someone who never heard of an init:
 * what asks and for what while it waits; the outcome once decided (the live status re-renders the
 * page when it changes).
 */
const HEADINGS: Record<InitStatus, string> = {
  pending: "An application asks for access",
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

/**
 * Who asks, in one compact block: the application always; the device and addresses only when the
 * viewer may see them (lib/init/init-view.ts). A reported public address that is not where the
 * request came from is flagged here, unless the page's warning (another network) already says more.
 */
function WhoIsAsking({ init, proximity, warned }: { init: InitView; proximity: Proximity | null; warned: boolean }) {
  const notReported = <span className="muted">not reported</span>;
  const { details } = init;
  const device = details === null ? [] : [details.senderDevice, details.senderOs].filter((part) => part !== null);
  return (
    <section className="approval-facts" aria-labelledby="who-asks">
      <h2 id="who-asks">{init.status === "pending" ? "Who is asking" : "Who asked"}</h2>
      <dl className="facts paired">
        <dt>Application</dt>
        <dd>
          {init.sender}
          <ClientIdNote name={init.sender} />
        </dd>
        {init.bindingMessage === null ? null : (
          <>
            <dt>Purpose</dt>
            <dd>
              &ldquo;{init.bindingMessage}&rdquo; <span className="muted">(the application&apos;s own words)</span>
            </dd>
          </>
        )}
        {details === null ? null : (
          <>
            <dt>Device</dt>
            <dd>{device.length === 0 ? notReported : device.join(" · ")}</dd>
            <dt>Address</dt>
            <dd>
              <AddressFact
                observed={<ObservedAddress address={details.observedIp} proximity={proximity} />}
                reported={<ReportedAddress address={details.senderIp} flagged={details.addressMismatch && !warned} short />}
              />
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

/**
 * How long the application's access lasts (ACCESS_LIFETIME_CHOICES), on the row of Deny and
 * Approve: the choice and the buttons stay together on the first screen.
 */
function Lifetime({ choices, preselected }: { choices: AccessLifetime[]; preselected: AccessLifetime }) {
  if (choices.length === 1) return <span>Access for {lifetimeText(preselected.ms)}</span>;
  // On a phone the label shows "for" alone (after "Give the application access to"), so the choice, Deny and Approve share one row.
  return (
    <label>
      <span>
        <span className="wide-only">Access </span>
        <span className="phone-capital">for</span>
      </span>
      <select name="access_lifetime" defaultValue={preselected.label}>
        {choices.map((choice) => (
          <option key={choice.label} value={choice.label}>
            {lifetimeText(choice.ms)}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * The code check the approve operation makes (lib/init/code-check.ts), worded for what the
 * client declared: the code typed where it shows one (never filled in from the URL: a link's
 * `?user_code=` is a code the person never typed); where it shows none, a box saying that the
 * person started it, naming what; and nothing more once they typed the code at /device.
 */
function CodeCheck({ init, mode, codeEntered, back }: { init: InitView; mode: Exclude<CodeCheckMode, "refused" | "other_browser">; codeEntered: boolean; back: ClientReturn | null }) {
  if (mode === "redirect" && back !== null) {
    return <p className="code-check">When you approve, this browser takes the answer back to the application, on this computer ({back.redirectTo}).</p>;
  }
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
    <label className="code-field">
      Code shown in your terminal
      <input name="user_code" required autoComplete="off" autoCapitalize="characters" spellCheck={false} maxLength={USER_CODE_INPUT_MAX} placeholder="XXXX-XXXX" />
    </label>
  );
}

/** A new project refused by its limits (lib/projects/new-project.ts): the page then offers the person's own projects first. */
const NEW_PROJECT_REFUSALS: ReadonlySet<string> = new Set(["too_many_new_projects", "project_limit_reached"]);

/** A team a new project may be made in: one where the person is an admin or owner. */
type TeamPlace = { id: string; name: string };

/**
 * Where a new project is made, after its name: the person's own, or one of `teams`. Nothing for
 * someone who may make projects in no team, whose new project is personal.
 */
function NewProjectPlace({ teams }: { teams: TeamPlace[] }) {
  if (teams.length === 0) return null;
  return (
    <>
      <span>in</span>
      <select name="team" defaultValue="" aria-label="Where to make the new project">
        <option value="">Personal</option>
        {teams.map((team) => (
          <option key={team.id} value={team.id}>
            {groupLabel(team)}
          </option>
        ))}
      </select>
    </>
  );
}

/**
 * The existing projects, one radio each: the personal ones, then each team's in a group named
 * after the team (inline, so that the choice stays as compact as before for someone without teams).
 */
function ExistingProjects({ projects, checked }: { projects: ProjectSummary[]; checked: string }) {
  const groups = groupByTeam(projects);
  const named = groups.some((group) => group.team !== null);
  return groups.map(({ team, projects: members }) => {
    const labelId = `projects-of-${team?.id ?? "personal"}`;
    return (
      <div className="project-choices" key={labelId} role={named ? "group" : undefined} aria-labelledby={named ? labelId : undefined}>
        {named ? (
          <span id={labelId} className="muted">
            {groupLabel(team)}
          </span>
        ) : null}
        {members.map((project) => (
          <label className="check" key={project.id}>
            <input type="radio" name="project" value={project.id} defaultChecked={project.id === checked} /> {project.name}
          </label>
        ))}
      </div>
    );
  });
}

/**
 * The choice the form starts on: an existing project named as the application (an earlier login
 * of the same client made it; approving into it again makes no duplicate), else, after a new
 * project was refused, the newest project; else a new project.
 */
function initialChoice(projects: ProjectSummary[], name: string, preferExisting: boolean): string {
  const same = projects.find((project) => project.name === name);
  if (same !== undefined) return same.id;
  return preferExisting ? (projects[0]?.id ?? "new") : "new";
}

function Decision({
  init,
  projects,
  teams,
  codeCheck,
  preferExisting,
  codeEntered,
  needsPasskey,
  lifetimes,
  back,
}: {
  init: InitView;
  /** An authorization request's way back to its application (lib/oauth/authorization-code.ts); null for other inits. */
  back: ClientReturn | null;
  projects: ProjectSummary[];
  /** The teams a new project may be made in. */
  teams: TeamPlace[];
  codeCheck: CodeCheckMode;
  lifetimes: { choices: AccessLifetime[]; preselected: AccessLifetime };
  preferExisting: boolean;
  /** This browser session typed the init's code at /device (lib/init/code-entry.ts). */
  codeEntered: boolean;
  /** The account's approvals need a passkey (lib/passkeys/step-up.ts). */
  needsPasskey: boolean;
}) {
  const defaultName = init.sender.slice(0, PROJECT_NAME_MAX);
  const deny = <DenyForm id={DENY_FORM} action={`/init/${init.id}/deny`} />;
  // Nothing to approve with (ProximityWarning says why, or the request was opened in another browser): only Deny.
  if (codeCheck === "refused" || codeCheck === "other_browser") {
    return (
      <DecisionSection>
        {codeCheck === "other_browser" ? (
          <p>This request was opened in another browser. Approve it in the browser the application opened on your computer: its answer goes back through that browser.</p>
        ) : null}
        <ApprovalActions denyForm={DENY_FORM} approve={false}>
          <p className="hint">From here you can only deny it. The application gets nothing.</p>
        </ApprovalActions>
        {deny}
      </DecisionSection>
    );
  }
  const checked = initialChoice(projects, defaultName, preferExisting);
  return (
    <DecisionSection>
      <form method="post" action={`/init/${init.id}/approve`} className="stack">
        <CodeCheck init={init} mode={codeCheck} codeEntered={codeEntered} back={back} />
        <fieldset>
          <legend>Give the application access to</legend>
          {projects.length === 0 ? (
            // No project to choose from: a new one, named here.
            <div className="new-project">
              <input type="hidden" name="project" value="new" />
              <span>a new project named</span>
              <input name="name" defaultValue={defaultName} maxLength={PROJECT_NAME_MAX} required aria-label="New project name" />
              <NewProjectPlace teams={teams} />
            </div>
          ) : (
            <>
              <div className="new-project">
                <label className="check">
                  <input type="radio" name="project" value="new" defaultChecked={checked === "new"} /> a new project named
                </label>
                <input name="name" defaultValue={defaultName} maxLength={PROJECT_NAME_MAX} aria-label="New project name" />
                <NewProjectPlace teams={teams} />
              </div>
              <ExistingProjects projects={projects} checked={checked} />
            </>
          )}
        </fieldset>
        {needsPasskey ? <PasskeyStepUp approval={{ kind: "init", id: init.id }} /> : null}
        <ApprovalActions denyForm={DENY_FORM} approve>
          <Lifetime choices={lifetimes.choices} preselected={lifetimes.preselected} />
        </ApprovalActions>
      </form>
      {deny}
    </DecisionSection>
  );
}

const DENY_FORM = "deny-form";

/** Who decided, as a signed-in viewer may know it: you, or another account (never which); null to a signed-out viewer. */
function decider(deciderId: string | null, viewerId: string | null): "You" | "Another account" | null {
  if (viewerId === null || deciderId === null) return null;
  return deciderId === viewerId ? "You" : "Another account";
}

/** The approver may undo an approval for UNDO_APPROVAL_MS after it; later, "This wasn't me" in the activity does the same. */
function mayUndo(init: InitView, viewerId: string | null, now: number): boolean {
  return init.status === "done" && viewerId !== null && init.approvedById === viewerId && init.decidedAt !== null && now - init.decidedAt < UNDO_APPROVAL_MS;
}

/**
 * What follows a decision for an authorization request (lib/oauth/authorization-code.ts): the
 * browser goes back to the application with the answer, or is told that it went already or came
 * too late; for any other init, or a viewer it is not for, `otherwise`.
 */
function Afterwards({ back, otherwise }: { back: ClientReturn | null; otherwise: ReactNode }) {
  if (back?.kind === "go") return <ReturnToClient url={back.url} redirectTo={back.redirectTo}>Taking you back to the application…</ReturnToClient>;
  if (back?.kind === "returned") return <p>The application has its answer. You can close this tab.</p>;
  if (back?.kind === "sent") return <p>This browser took the answer back to the application. If it did not arrive, start again from the application.</p>;
  if (back?.kind === "lapsed") return <p>The application did not collect its answer within a minute, so it gets nothing. Start again from the application.</p>;
  return otherwise;
}

/** Decided or expired: the heading in a banner whose icon and colour say the outcome, then what it means; Undo below it, quietly. */
function Outcome({
  init,
  viewerId,
  report,
  team,
  heading,
  back,
}: {
  init: InitView;
  viewerId: string | null;
  report: ReportedApproval | null;
  back: ClientReturn | null;
  /** The team of the project it was approved into, for its approver; null for a personal project. */
  team: string | null;
  heading: ReactNode;
}) {
  if (report !== null) {
    return (
      <>
        <OutcomeBanner outcome="denied">
          {heading}
          <p>You took this approval back (&ldquo;This wasn&apos;t me&rdquo;). The application has no access any more: it has to start again, and be approved again.</p>
        </OutcomeBanner>
        <ReportedNotice report={report} />
      </>
    );
  }
  if (init.status === "done") {
    const who = decider(init.approvedById, viewerId);
    return (
      <>
        <OutcomeBanner outcome="done">
          {heading}
          <p id="approved-outcome">
            {who === "You" && init.project !== null ? (
              <>
                You approved it: the application now has access to {team === null ? "your project" : "the project"}{" "}
                <Link href={`/projects/${init.project.id}`}>{init.project.name}</Link>
                {team === null ? null : ` of the team ${team}`}. It is listed on the project&apos;s page once it connects.
              </>
            ) : who === null ? (
              "It was approved."
            ) : (
              `${who} approved it.`
            )}
          </p>
          <Afterwards back={back} otherwise={<p>You can close this page and return to your terminal.</p>} />
        </OutcomeBanner>
        {mayUndo(init, viewerId, Date.now()) ? (
          <div className="undo">
            <p className="hint">
              Not what you meant? You can undo it here for {UNDO_APPROVAL_MS / 60_000} minutes; later, use &ldquo;This wasn&apos;t me&rdquo; in your
              activity.
            </p>
            <ReportControl initId={init.id} from="init" describedBy="approved-outcome" label="Undo…" quiet />
          </div>
        ) : null}
      </>
    );
  }
  if (init.status === "denied") {
    const who = decider(init.deniedById, viewerId);
    return (
      <OutcomeBanner outcome="denied">
        {heading}
        <p>
          {who === null ? "It was denied" : `${who} denied it`}: the application got no access. If you meant to approve it, start again in your terminal.
        </p>
        <Afterwards back={back} otherwise={null} />
      </OutcomeBanner>
    );
  }
  return (
    <OutcomeBanner outcome="expired">
      {heading}
      <p>Nobody approved it in time, so the application got no access. Start again in your terminal to get a new link.</p>
      <Afterwards back={back} otherwise={null} />
    </OutcomeBanner>
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
  const requestHeaders = await headers();
  const authorizingBrowser = isAuthorizingBrowser(cfg, init.id, requestHeaders.get("cookie"));
  // A refresh in place (the live status's) is a React Server Components request, marked `RSC: 1`.
  const back = await clientReturn(cfg, init.id, init, user?.id ?? null, { authorizing: authorizingBrowser, document: requestHeaders.get("rsc") === null });
  // An authorization request is approved in the browser that opened it, or not at all (lib/init/code-check-mode.ts): where it came from is no warning.
  const proximity = init.details === null || back !== null ? null : proximityOf(cfg, init.details.observedIp, browserAddress);
  const codeCheck = codeCheckMode(cfg.initCodeCheck, init.userCodeShown, proximity ?? "unknown", back === null ? "no_request" : authorizingBrowser ? "this_browser" : "other_browser");

  const heading = <h1>{HEADINGS[init.status]}</h1>;
  const live = <LiveStatus id={init.id} initialStatus={init.status} intervalMs={init.intervalMs} expiresAt={init.expiresAt} signedIn={user !== null} />;

  // Decided or expired: what happened comes first, then who had asked, for the account that decided only.
  if (init.status !== "pending") {
    const approver = user !== null && init.approvedById === user.id ? user : null;
    return (
      <>
        <Outcome
          init={init}
          viewerId={user?.id ?? null}
          report={approver === null ? null : await reportedApproval(approver.id, init.id)}
          team={approver === null || init.project === null ? null : ((await findReachableProject(approver.id, init.project.id))?.team?.name ?? null)}
          heading={heading}
          back={back}
        />
        {live}
        <ErrorAlert message={error} />
        {init.details === null ? null : (
          <div className="card approval">
            <WhoIsAsking init={init} proximity={null} warned={false} />
          </div>
        )}
      </>
    );
  }
  const warned = proximity !== null && !isNearby(proximity);
  return (
    <>
      {heading}
      {live}
      <ErrorAlert message={error} />
      <ApprovalCard warned={warned}>
        {proximity === null ? null : (
          <ProximityWarning proximity={proximity} clientAddress={init.details?.observedIp ?? null} browserAddress={browserAddress} showsCode={codeCheck !== "refused"} />
        )}
        <WhoIsAsking init={init} proximity={proximity} warned={warned} />
        {user === null ? (
          <section aria-labelledby="sign-in-heading">
            <h2 id="sign-in-heading">Sign in to continue</h2>
            <p>
              <Link href={withReturnTo("/signin", returnTo)}>Sign in</Link>
              {passwordSignUpOpen(cfg) ? (
                <>
                  {" "}
                  or <Link href={withReturnTo("/signup", returnTo)}>create an account</Link>
                </>
              ) : null}{" "}
              to approve or deny this request. Approve it only if you started it yourself, just now. Once you are signed in, this page shows the
              device and network the request came from.
            </p>
            {cfg.oidc === null ? null : <ProviderSignIn name={cfg.oidc.displayName} returnTo={returnTo} />}
          </section>
        ) : (
          <Decision
            init={init}
            projects={await listProjects(user.id)}
            teams={(await listTeams(user.id)).filter((team) => hasRole(team.role, "admin"))}
            codeCheck={codeCheck}
            preferExisting={typeof query.error === "string" && NEW_PROJECT_REFUSALS.has(query.error)}
            codeEntered={await codeEnteredBy(init.id, user.sessionId)}
            needsPasskey={await approvalsNeedPasskey(user.id)}
            lifetimes={cfg.accessLifetimes}
            back={back}
          />
        )}
      </ApprovalCard>
    </>
  );
}
