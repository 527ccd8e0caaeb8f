import type { PasskeySummary } from "@/lib/passkeys/manage-passkeys";
import { LocalTime } from "../local-time";

/** Remove in two steps, as Revoke is on the tokens page: a disclosure, then the button that posts. */
function RemoveControl({ passkey, titleId }: { passkey: PasskeySummary; titleId: string }) {
  return (
    <details className="confirm">
      <summary aria-describedby={titleId}>Remove…</summary>
      <form method="post" action={`/settings/passkeys/${passkey.id}/remove`} className="stack">
        <p>Remove the passkey “{passkey.name}”? It can no longer sign you in or confirm approvals here. Remove it from the device too.</p>
        <button type="submit" className="danger">
          Yes, remove
        </button>
      </form>
    </details>
  );
}

/** One passkey of the account: its name, when it was added and last used, and Remove. */
export function PasskeyEntry({ passkey }: { passkey: PasskeySummary }) {
  const titleId = `passkey-${passkey.id}`;
  return (
    <li>
      <p className="entry-title" id={titleId}>
        {passkey.name}
      </p>
      <dl className="facts">
        <dt>Added</dt>
        <dd>
          <LocalTime value={passkey.createdAt} />
        </dd>
        <dt>Last used</dt>
        <dd>{passkey.lastUsedAt ? <LocalTime value={passkey.lastUsedAt} /> : "never"}</dd>
      </dl>
      <RemoveControl passkey={passkey} titleId={titleId} />
    </li>
  );
}

const quoted = (passkeys: PasskeySummary[]) => passkeys.map((passkey) => `“${passkey.name}”`).join(", ");

/**
 * After a password change or signing sessions out (lib/passkeys/manage-passkeys.ts,
 * passkeysToReview): a passkey still signs in without the password, so the account's passkeys
 * are listed with Remove, and those added in the last day are named, in case someone who held a
 * session added one.
 */
export function PasskeyReview({ passkeys, recent }: { passkeys: PasskeySummary[]; recent: PasskeySummary[] }) {
  if (passkeys.length === 0) return null;
  return (
    <section aria-labelledby="review-passkeys-heading">
      <h2 id="review-passkeys-heading">Check your passkeys</h2>
      {recent.length > 0 ? (
        <p className="warning">
          {recent.length === 1 ? `A passkey was added in the last day: ${quoted(recent)}.` : `Passkeys were added in the last day: ${quoted(recent)}.`} If you did not add{" "}
          {recent.length === 1 ? "it" : "them"}, remove {recent.length === 1 ? "it" : "them"} below.
        </p>
      ) : null}
      <p className="muted">A passkey signs in on its own, without your password or a session, so it stays after this. Remove any passkey you do not recognise.</p>
      <ul className="card entries">
        {passkeys.map((passkey) => (
          <PasskeyEntry key={passkey.id} passkey={passkey} />
        ))}
      </ul>
    </section>
  );
}
