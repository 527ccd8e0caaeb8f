import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentUser } from "@/lib/api/page-session";
import { passwordsOn } from "@/lib/auth/account-policy";
import { withReturnTo } from "@/lib/api/return-to";
import { config } from "@/lib/config";
import { pageMessage } from "@/lib/errors";
import { keepsAWayIn, signInMethods, type IdentitySummary } from "@/lib/identity/manage-identities";
import { sameIssuer } from "@/lib/identity/provider";
import { DoneNotice, ErrorAlert } from "../../form-parts";
import { LocalTime } from "../../local-time";
import { SettingsNav } from "../settings-nav";

export const metadata: Metadata = { title: "Identity provider" };

/** Unlink in two steps, as Remove is for a passkey: a disclosure, then the button that posts. */
function UnlinkControl({ identity, name, titleId }: { identity: IdentitySummary; name: string; titleId: string }) {
  return (
    <details className="confirm">
      <summary aria-describedby={titleId}>Unlink…</summary>
      <form method="post" action={`/settings/identity/${identity.id}/unlink`} className="stack">
        <p>Unlink {name}? It no longer signs you in to this account; your password or passkeys still do.</p>
        <button type="submit" className="danger">
          Yes, unlink
        </button>
      </form>
    </details>
  );
}

function IdentityEntry({ identity, name, unlinkable }: { identity: IdentitySummary; name: string; unlinkable: boolean }) {
  const titleId = `identity-${identity.id}`;
  return (
    <li>
      <p className="entry-title" id={titleId}>
        {name}
      </p>
      <dl className="facts">
        <dt>Issuer</dt>
        <dd>{identity.issuer}</dd>
        <dt>Email there</dt>
        <dd>{identity.email === null ? "not shared" : `${identity.email} (${identity.emailVerified ? "verified by the provider" : "not verified by the provider"})`}</dd>
        <dt>Linked</dt>
        <dd>
          <LocalTime value={identity.createdAt} />
        </dd>
        <dt>Last used</dt>
        <dd>{identity.lastUsedAt ? <LocalTime value={identity.lastUsedAt} /> : "never"}</dd>
      </dl>
      {unlinkable ? (
        <UnlinkControl identity={identity} name={name} titleId={titleId} />
      ) : (
        <p className="muted">This is your only way to sign in. Add a passkey before you unlink it.</p>
      )}
    </li>
  );
}

export default async function IdentityPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await currentUser();
  if (user === null) redirect(withReturnTo("/signin", "/settings/identity"));
  const [methods, query] = await Promise.all([signInMethods(user.id, passwordsOn(config())), searchParams]);
  const provider = config().oidc;
  const nameOf = (identity: IdentitySummary) => (provider !== null && sameIssuer(identity.issuer, provider.issuer) ? provider.displayName : identity.issuer);
  const linked = provider !== null && methods.identities.some((identity) => sameIssuer(identity.issuer, provider.issuer));
  const done = query.linked === "1" ? `Linked: ${provider?.displayName ?? "your identity provider"} now signs you in to this account.` : query.unlinked === "1" ? "Unlinked." : null;
  return (
    <>
      <h1>Identity provider</h1>
      <SettingsNav />
      <p className="muted">
        Your organisation&apos;s identity provider can sign you in here instead of a password. Only you can link it, signed in to this account: an account is
        never linked because an email matches.
      </p>
      <ErrorAlert message={pageMessage(query.error)} />
      <DoneNotice message={done} />
      {methods.identities.length === 0 ? (
        <p className="muted">No identity provider is linked to your account.</p>
      ) : (
        <ul className="card entries">
          {methods.identities.map((identity) => (
            <IdentityEntry key={identity.id} identity={identity} name={nameOf(identity)} unlinkable={keepsAWayIn(methods, identity.id)} />
          ))}
        </ul>
      )}
      {provider === null || linked ? null : (
        <section className="card stack" aria-labelledby="link-heading">
          <h2 id="link-heading">Link {provider.displayName}</h2>
          <p>You sign in at {provider.displayName} and come back here; from then on it signs you in to this account.</p>
          <a className="button" href="/auth/oidc/link">
            Link {provider.displayName}
          </a>
        </section>
      )}
    </>
  );
}
