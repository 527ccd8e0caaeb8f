import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentUser } from "@/lib/api/page-session";
import { withReturnTo } from "@/lib/api/return-to";
import { pageMessage } from "@/lib/errors";
import { PASSKEY_NAME_MAX } from "@/lib/field-lengths";
import { listPasskeys, type PasskeySummary } from "@/lib/passkeys/manage-passkeys";
import { approvalsNeedPasskey } from "@/lib/passkeys/step-up";
import { DoneNotice, ErrorAlert } from "../../form-parts";
import { LocalTime } from "../../local-time";
import { PasskeyField } from "../../passkey-field";
import { SettingsNav } from "../settings-nav";

export const metadata: Metadata = { title: "Passkeys" };

const APPROVALS_NOTICE: Record<string, string> = {
  on: "Approvals now need a passkey.",
  off: "Approvals no longer need a passkey.",
};

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

function PasskeyEntry({ passkey }: { passkey: PasskeySummary }) {
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

/** "Approvals need a passkey": on takes one click; off takes a passkey, so a borrowed session cannot turn it off. */
function ApprovalsSetting({ required, hasPasskey }: { required: boolean; hasPasskey: boolean }) {
  return (
    <form method="post" action="/settings/passkeys/approvals" className="card stack" aria-labelledby="approvals-heading">
      <h2 id="approvals-heading">Approvals need a passkey</h2>
      <p>
        When this is on, approving a client&apos;s request (on its page or through the device page) or a browser link asks for one of your passkeys,
        for that approval only. A site that copies this one cannot get that answer from your passkey: it only answers this site.
      </p>
      <p role="status" className={`status status-${required ? "done" : "pending"}`}>
        {required ? "On" : "Off"}
      </p>
      <input type="hidden" name="required" value={required ? "off" : "on"} />
      {required ? (
        <PasskeyField name="passkey_assertion" ceremony={{ kind: "step_up", for: { kind: "settings" } }} failure="Still on: your passkey did not confirm the change." />
      ) : null}
      {required || hasPasskey ? (
        <button type="submit" className="secondary">
          {required ? "Turn off (asks for a passkey)" : "Turn on"}
        </button>
      ) : (
        <p className="muted">Add a passkey below to turn this on.</p>
      )}
    </form>
  );
}

export default async function PasskeysPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await currentUser();
  if (user === null) redirect(withReturnTo("/signin", "/settings/passkeys"));
  const [passkeys, required, query] = await Promise.all([listPasskeys(user.id), approvalsNeedPasskey(user.id), searchParams]);
  const added = passkeys.find((passkey) => passkey.id === query.added);
  const done = added
    ? `Added the passkey “${added.name}”.`
    : query.removed === "1"
      ? "Removed the passkey."
      : typeof query.approvals === "string"
        ? (APPROVALS_NOTICE[query.approvals] ?? null)
        : null;
  return (
    <>
      <h1>Passkeys</h1>
      <SettingsNav />
      <p className="muted">A passkey signs you in without a password, and can confirm your approvals. It works only on this site, so a look-alike site cannot use it.</p>
      <ErrorAlert message={pageMessage(query.error)} />
      <DoneNotice message={done} />
      <h2>Your passkeys</h2>
      {passkeys.length === 0 ? (
        <p className="muted">No passkeys yet.</p>
      ) : (
        <ul className="card entries">
          {passkeys.map((passkey) => (
            <PasskeyEntry key={passkey.id} passkey={passkey} />
          ))}
        </ul>
      )}
      <form method="post" action="/settings/passkeys/add" className="card stack" aria-labelledby="new-passkey-heading">
        <h2 id="new-passkey-heading">Add a passkey</h2>
        <label>
          Passkey name
          <input name="name" type="text" required maxLength={PASSKEY_NAME_MAX} autoComplete="off" placeholder="e.g. work laptop" />
        </label>
        <PasskeyField name="credential" ceremony={{ kind: "register" }} failure="No passkey was added." />
        <button type="submit">Add passkey</button>
      </form>
      <ApprovalsSetting required={required} hasPasskey={passkeys.length > 0} />
    </>
  );
}
