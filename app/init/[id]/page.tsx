import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { recordInitOpened } from "@/lib/activity/record-activity";
import { currentUser } from "@/lib/auth/current-user";
import { config } from "@/lib/config";
import { PROJECT_NAME_MAX, USER_CODE_INPUT_MAX } from "@/lib/field-limits";
import { formErrorMessage } from "@/lib/http/messages";
import { codeCheckMode, type CodeCheckMode } from "@/lib/init/code-check-mode";
import { findInitView, type InitView } from "@/lib/init/init-view";
import { listProjects } from "@/lib/projects/projects";
import { LiveStatus } from "./live-status";
import { ErrorAlert } from "../../form-parts";

export const metadata: Metadata = { title: "Approve a client", referrer: "no-referrer" };

function minutesAgo(ms: number): string {
  const minutes = Math.floor((Date.now() - ms) / 60_000);
  return minutes < 1 ? "less than a minute ago" : minutes === 1 ? "1 minute ago" : `${minutes} minutes ago`;
}

function WhoIsAsking({ init }: { init: InitView }) {
  const notReported = <span className="muted">not reported</span>;
  return (
    <section className="card" aria-labelledby="who-asks">
      <h2 id="who-asks">Who is asking</h2>
      <dl className="facts">
        <dt>Application</dt>
        <dd>{init.sender}</dd>
        <dt>Device</dt>
        <dd>{init.senderDevice ?? notReported}</dd>
        <dt>Operating system</dt>
        <dd>{init.senderOs ?? notReported}</dd>
        <dt>Reported address</dt>
        <dd>{init.senderIp ?? notReported}</dd>
        <dt>Request came from</dt>
        <dd>
          {init.observedIp ?? <span className="muted">unknown</span>}
          {init.addressMismatch ? <strong className="flag"> (differs from the reported address)</strong> : null}
        </dd>
        <dt>Started</dt>
        <dd>
          <time dateTime={new Date(init.createdAt).toISOString()}>{minutesAgo(init.createdAt)}</time>
        </dd>
      </dl>
    </section>
  );
}

function Decision({ init, projects, codeCheck }: { init: InitView; projects: { id: string; name: string }[]; codeCheck: CodeCheckMode }) {
  return (
    <>
      <form method="post" action={`/init/${init.id}/approve`} className="card stack" aria-labelledby="approve-heading">
        <h2 id="approve-heading">Approve</h2>
        {codeCheck === "confirm" ? (
          <>
            <p>
              Your terminal shows a code. It must be exactly this one:
              <span className="user-code" aria-label={`Code ${init.userCode.split("").join(" ")}`}>
                {init.userCode}
              </span>
            </p>
            <label className="check">
              <input type="checkbox" name="code_confirmed" value="yes" required /> The code in my terminal is {init.userCode}
            </label>
          </>
        ) : (
          <label>
            Code shown in your terminal
            <input name="user_code" required autoComplete="off" autoCapitalize="characters" spellCheck={false} maxLength={USER_CODE_INPUT_MAX} placeholder="XXXX-XXXX" />
          </label>
        )}
        <fieldset>
          <legend>Link the client to</legend>
          <label className="check">
            <input type="radio" name="project" value="new" defaultChecked /> a new project named
          </label>
          <div className="indent">
            <input name="name" defaultValue={init.sender.slice(0, PROJECT_NAME_MAX)} maxLength={PROJECT_NAME_MAX} aria-label="New project name" />
          </div>
          {projects.map((project) => (
            <label className="check" key={project.id}>
              <input type="radio" name="project" value={project.id} /> {project.name}
            </label>
          ))}
        </fieldset>
        <button type="submit">Approve</button>
      </form>
      <form method="post" action={`/init/${init.id}/deny`} className="card stack" aria-labelledby="deny-heading">
        <h2 id="deny-heading">Not you?</h2>
        <p>If you did not start this, deny it. The client gets nothing.</p>
        <button type="submit" className="danger">
          Deny
        </button>
      </form>
    </>
  );
}

/** Who decided, as a signed-in viewer may know it: you, or another account (never which). */
function decidedBy(deciderId: string | null, viewerId: string | null): string {
  if (viewerId === null || deciderId === null) return "";
  return deciderId === viewerId ? " by you" : " by another account";
}

function Outcome({ init, viewerId }: { init: InitView; viewerId: string | null }) {
  if (init.status === "done") {
    const mine = init.project !== null && init.approvedById === viewerId;
    return (
      <section className="card">
        <h2>Approved</h2>
        <p>This request has been approved{decidedBy(init.approvedById, viewerId)}.</p>
        {mine && init.project ? (
          <p>
            The client is linked to <Link href={`/projects/${init.project.id}`}>{init.project.name}</Link>.
          </p>
        ) : null}
        <p>You can close this page and return to your terminal.</p>
      </section>
    );
  }
  if (init.status === "denied") {
    return (
      <section className="card">
        <h2>Denied</h2>
        <p>
          This request was denied{decidedBy(init.deniedById, viewerId)}. The client did not get access. If you meant to approve it, start again in
          your terminal.
        </p>
      </section>
    );
  }
  return (
    <section className="card">
      <h2>Expired</h2>
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
  const init = await findInitView(id);
  if (init === null) notFound();
  const [user, query] = await Promise.all([currentUser(), searchParams]);
  const error = formErrorMessage(query.error);
  const returnTo = encodeURIComponent(`/init/${init.id}`);
  // A pending request a signed-in person has seen is in their activity, and so is its expiry.
  if (user !== null && init.status === "pending") await recordInitOpened(user.id, init.id);

  return (
    <>
      <h1>A client asks to be linked</h1>
      <LiveStatus id={init.id} initialStatus={init.status} intervalMs={init.intervalMs} expiresAt={init.expiresAt} />
      <ErrorAlert message={error} />
      <WhoIsAsking init={init} />
      {init.status !== "pending" ? (
        <Outcome init={init} viewerId={user?.id ?? null} />
      ) : (
        <>
          <p className="warning">Approve only if you just started this yourself in a terminal. Otherwise, deny it.</p>
          {user === null ? (
            <section className="card">
              <h2>Sign in to continue</h2>
              <p>
                <Link href={`/signin?returnTo=${returnTo}`}>Sign in</Link> or <Link href={`/signup?returnTo=${returnTo}`}>create an account</Link> to
                approve or deny. You will come back to this page.
              </p>
            </section>
          ) : (
            <Decision init={init} projects={await listProjects(user.id)} codeCheck={codeCheckMode(config().initCodeCheck, init.userCodeShown)} />
          )}
        </>
      )}
    </>
  );
}
