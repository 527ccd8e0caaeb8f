import type { Config } from "../config";
import { db } from "../database/db";
import { sameIssuer } from "./provider";

// What the platform's own identity provider calls the approving account: its issuer and the
// person's `sub` there (OpenID Connect Core §2: the pair is the person's stable identifier), so a
// platform whose users sign in through that provider maps a login to its own user without a
// table of initlink's ids. Only the provider this service is set up with (OIDC_ISSUER): an
// identity of a provider it no longer uses names nobody the platform knows.

/** The claim's value: `{iss, sub}` at the provider. */
export type UpstreamAccount = { iss: string; sub: string };

/** The account's identity at the configured provider, or null (a local account, or no provider). */
export async function upstreamAccount(cfg: Config, userId: string): Promise<UpstreamAccount | null> {
  if (cfg.oidc === null) return null;
  const prisma = await db();
  const identities = await prisma.federatedIdentity.findMany({ where: { userId }, select: { issuer: true, subject: true } });
  const identity = identities.find((candidate) => sameIssuer(candidate.issuer, cfg.oidc!.issuer));
  return identity === undefined ? null : { iss: identity.issuer, sub: identity.subject };
}

/** The claim, spread into a token's claims or an introspection answer: absent for a local account. */
export const upstreamClaim = (upstream: UpstreamAccount | null): { account_upstream?: UpstreamAccount } => (upstream === null ? {} : { account_upstream: upstream });
