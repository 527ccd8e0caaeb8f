import type { MemberApprovals } from "@/lib/teams/membership";
import { LocalTime } from "../../../../local-time";
import { plural } from "../../../team-parts";

/** How much of a link's iv tells it apart from the member's other links, as a client shows its own. */
const IV_PREFIX_LENGTH = 12;

/** What a removal revokes: the member's live links into the team's projects, their access tokens for them, their OAuth logins. */
export function ApprovalsRevoked({ approvals, leaving }: { approvals: MemberApprovals; leaving: boolean }) {
  const { links, tokens, logins } = approvals;
  return (
    <>
      <section aria-labelledby="live-links">
        <h2 id="live-links">Live links</h2>
        {links.length === 0 ? (
          <p className="muted">None.</p>
        ) : (
          <ul className="card entries">
            {links.map((link) => (
              <li key={link.id}>
                <p className="entry-title">{link.tokenName}</p>
                <dl className="facts">
                  <dt>Project</dt>
                  <dd>{link.projectName}</dd>
                  <dt>Link iv</dt>
                  <dd>
                    <code>{link.iv.slice(0, IV_PREFIX_LENGTH)}…</code>
                  </dd>
                  <dt>Linked</dt>
                  <dd>
                    <LocalTime value={link.createdAt} />
                  </dd>
                </dl>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="access-tokens">
        <h2 id="access-tokens">Access tokens</h2>
        {tokens.length === 0 ? (
          <p className="muted">None.</p>
        ) : (
          <ul className="card list long-words">
            {tokens.map((token) => (
              <li key={token.id}>
                {token.name}{" "}
                <span className="muted">
                  for {token.projectName}, made <LocalTime value={token.createdAt} />
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="oauth-logins">
        <h2 id="oauth-logins">Applications&apos; logins</h2>
        <p>
          {logins === 0
            ? `${leaving ? "You are" : "They are"} signed in to no application through the team's projects.`
            : `${plural(logins, "OAuth login", "OAuth logins")} into the team's projects ${logins === 1 ? "is" : "are"} revoked: those applications lose the projects.`}
        </p>
      </section>
    </>
  );
}
