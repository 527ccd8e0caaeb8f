import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentUser } from "@/lib/api/page-session";
import { passwordsOn } from "@/lib/auth/account-policy";
import { withReturnTo } from "@/lib/api/return-to";
import { config } from "@/lib/config";
import { pageMessage } from "@/lib/errors";
import { PASSKEY_NAME_MAX, PASSWORD_MAX } from "@/lib/field-lengths";
import { signInMethods } from "@/lib/identity/manage-identities";
import { listPasskeys } from "@/lib/passkeys/manage-passkeys";
import { approvalsNeedPasskey } from "@/lib/passkeys/step-up";
import { DoneNotice, ErrorAlert } from "../../form-parts";
import { PasskeyField } from "../../passkey-field";
import { PasskeyEntry } from "../passkey-entry";
import { SettingsNav } from "../settings-nav";

export const metadata: Metadata = { title: "Passkeys" };

const APPROVALS_NOTICE: Record<string, string> = {
  on: "Approvals now need a passkey.",
  off: "Approvals no longer need a passkey.",
};

const ADD_PASSWORD_INPUT = "add-passkey-password";

/**
 * A new passkey signs in as the password does, so adding one asks first for one of the
 * account's passkeys or, on an account without one, for its password; an account with neither
 * proves itself by a sign-in through its identity provider in the last 10 minutes (lib/passkeys/register-passkey.ts).
 */
function AddPasskeyForm({ email, proofBy }: { email: string; proofBy: "passkey" | "password" | "recent_sign_in" }) {
  return (
    <form method="post" action="/settings/passkeys/add" className="card stack" aria-labelledby="new-passkey-heading">
      <h2 id="new-passkey-heading">Add a passkey</h2>
      <label>
        Passkey name
        <input name="name" type="text" required maxLength={PASSKEY_NAME_MAX} autoComplete="off" placeholder="e.g. work laptop" />
      </label>
      {proofBy === "passkey" ? (
        <p className="muted">To confirm it is you, your browser first asks for one of your passkeys, then makes the new one.</p>
      ) : proofBy === "recent_sign_in" ? (
        <p className="muted">To confirm it is you, this works within 10 minutes of signing in through your identity provider.</p>
      ) : (
        <>
          {/* For password managers: the account the password belongs to. Neither field is sent with the form. */}
          <input type="text" autoComplete="username" value={email} readOnly hidden />
          <label>
            Current password
            <input id={ADD_PASSWORD_INPUT} type="password" autoComplete="current-password" required maxLength={PASSWORD_MAX} aria-describedby="add-passkey-password-hint" />
            <span className="hint" id="add-passkey-password-hint">
              To confirm it is you: a passkey signs in as your password does.
            </span>
          </label>
        </>
      )}
      <PasskeyField
        name="credential"
        ceremony={{ kind: "register", proof: proofBy === "password" ? { by: "password", inputId: ADD_PASSWORD_INPUT } : { by: proofBy } }}
        failure="No passkey was added."
      />
      <button type="submit">Add passkey</button>
    </form>
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
        <p className="muted">Add a passkey first (under “Add a passkey”) to turn this on.</p>
      )}
    </form>
  );
}

export default async function PasskeysPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await currentUser();
  if (user === null) redirect(withReturnTo("/signin", "/settings/passkeys"));
  const [passkeys, required, methods, query] = await Promise.all([listPasskeys(user.id), approvalsNeedPasskey(user.id), signInMethods(user.id, passwordsOn(config())), searchParams]);
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
      <AddPasskeyForm email={user.email} proofBy={passkeys.length > 0 ? "passkey" : methods.password ? "password" : "recent_sign_in"} />
      <ApprovalsSetting required={required} hasPasskey={passkeys.length > 0} />
    </>
  );
}
