import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { currentUser } from "@/lib/api/page-session";
import { withReturnTo } from "@/lib/api/return-to";
import { listSessions, type SessionSummary } from "@/lib/auth/account-sessions";
import { pageMessage } from "@/lib/errors";
import { clientSoftware } from "@/lib/links/client-software";
import { passkeysToReview } from "@/lib/passkeys/manage-passkeys";
import { DoneNotice, ErrorAlert } from "../../form-parts";
import { LocalTime } from "../../local-time";
import { PasskeyReview } from "../passkey-entry";
import { SettingsNav } from "../settings-nav";

export const metadata: Metadata = { title: "Sessions" };

function SessionEntry({ session }: { session: SessionSummary }) {
  const titleId = `session-${session.id}`;
  const device = clientSoftware(session.userAgent) ?? "Unknown browser";
  return (
    <li>
      <p className="entry-title" id={titleId}>
        {device}
        {session.current ? <span className="muted"> · this browser</span> : null}
      </p>
      <dl className="facts">
        <dt>Address</dt>
        <dd>{session.address ?? "unknown"}</dd>
        <dt>Last seen</dt>
        <dd>{session.lastSeenAt ? <LocalTime value={session.lastSeenAt} /> : "not since it was kept"}</dd>
        <dt>Signed in</dt>
        <dd>
          <LocalTime value={session.createdAt} />
        </dd>
      </dl>
      <form method="post" action={`/settings/sessions/${session.id}/signout`}>
        <button type="submit" className="secondary" aria-describedby={titleId}>
          Sign out
        </button>
      </form>
    </li>
  );
}

const signedOutNotice = (value: string | string[] | undefined): string | null => {
  if (typeof value !== "string" || !/^\d+$/.test(value)) return null;
  const count = Number(value);
  return count === 1 ? "Signed out 1 session." : `Signed out ${count} sessions.`;
};

export default async function SessionsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await currentUser();
  if (user === null) redirect(withReturnTo("/signin", "/settings/sessions"));
  const [sessions, query] = await Promise.all([listSessions(user.id, user.sessionId), searchParams]);
  const others = sessions.filter((session) => !session.current).length;
  const notice = signedOutNotice(query.signedOut);
  // Once sessions are signed out: the passkeys, which sign in again without a session.
  const review = notice === null ? null : await passkeysToReview(user.id);
  return (
    <>
      <h1>Sessions</h1>
      <SettingsNav />
      <p className="muted">
        The browsers signed in to your account. If you do not recognise one, sign it out and <Link href="/settings/password">change your password</Link>, which signs out every
        other session too.
      </p>
      <ErrorAlert message={pageMessage(query.error)} />
      <DoneNotice message={notice} />
      {review ? <PasskeyReview {...review} /> : null}
      <ul className="card entries">
        {sessions.map((session) => (
          <SessionEntry key={session.id} session={session} />
        ))}
      </ul>
      {others > 0 ? (
        <form method="post" action="/settings/sessions/signout-others" className="card stack">
          <p>
            {others === 1 ? "1 other session" : `${others} other sessions`} besides this browser. Sign them out: whoever holds them must sign in again.
          </p>
          <button type="submit" className="danger">
            Sign out all other sessions
          </button>
        </form>
      ) : null}
    </>
  );
}
