import type { ReportedApproval } from "@/lib/approvals/report-approval";
import type { ReportReturn } from "@/lib/approvals/schemas";

// "This wasn't me" (lib/approvals/report-approval.ts): the control on an approval, and what a
// report revoked, on the page it returns to.

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/**
 * Report in two steps, as a revocation: the summary opens a confirmation that says what stops
 * working, and only its button posts. `describedBy` names the approval, for screen readers.
 */
export function ReportControl({
  initId,
  from,
  describedBy,
  label = "This wasn’t me…",
  quiet = false,
}: {
  initId: string;
  from: ReportReturn;
  describedBy: string;
  label?: string;
  /** Drawn as a plain link until opened (Undo right after approving: there, not a warning). */
  quiet?: boolean;
}) {
  return (
    <details className={quiet ? "confirm quiet" : "confirm"}>
      <summary aria-describedby={describedBy}>{label}</summary>
      <form method="post" action={`/activity/approvals/${encodeURIComponent(initId)}/report`} className="stack">
        <input type="hidden" name="from" value={from} />
        <p>
          Revoke everything this approval gave: its access tokens, the client&apos;s login and every link made with them? The client is refused at once,
          here and by verifiers that introspect. This cannot be undone.
        </p>
        <button type="submit" className="danger">
          Yes, revoke everything
        </button>
      </form>
    </details>
  );
}

/** What a report revoked, counted and named; announced, as a done notice is. */
export function ReportedNotice({ report }: { report: ReportedApproval | null }) {
  if (report === null) return null;
  const nothing = report.accessTokens.length === 0 && report.links.length === 0 && report.logins === 0;
  return (
    <section role="status" className="done" aria-label="What the report revoked">
      <p>
        Reported as not yours{report.projectName === null ? "" : ` (project “${report.projectName}”)`}.{" "}
        {nothing ? "Nothing was left to revoke, and the client can collect nothing more." : "Revoked:"}
      </p>
      {nothing ? null : (
        <ul className="revoked">
          {report.accessTokens.length === 0 ? null : <li>{`${plural(report.accessTokens.length, "access token", "access tokens")}: ${report.accessTokens.join(", ")}`}</li>}
          {report.logins === 0 ? null : <li>{plural(report.logins, "OAuth login (its refresh tokens)", "OAuth logins (their refresh tokens)")}</li>}
          {report.links.length === 0 ? null : (
            <li>
              {plural(report.links.length, "link", "links")}
              {report.links.map((link) => (
                <span key={link.iv}>
                  {" "}
                  · {link.tokenName} (iv <code>{link.iv}</code>)
                </span>
              ))}
            </li>
          )}
        </ul>
      )}
      <p>A verifier that checks a link&apos;s bearer offline, without introspecting, accepts it until it expires.</p>
    </section>
  );
}
