import { identityRecord } from "../activity/record-activity";
import { credentialsSchema } from "../auth/schemas";
import { db, isUniqueViolation, statementsInOneTransaction } from "../database/db";
import { ApiError } from "../errors";
import type { RequestOrigin } from "../request-origin";
import { randomId } from "../secrets";
import type { Flow } from "./flow";
import { flowSpent, spendFlow } from "./spent-flows";

// The accounts of the provider's people. An account is found by the provider's issuer and its
// `sub` for the person (OpenID Connect Core §5.7: the only claims that identify them together),
// never by an email alone: a provider's email may be unverified, reassigned or another person's.
// A first sign-in makes the account, without a password, unless its email is an account's already:
// that account's owner links the provider from its settings, signed in to it. Each completed
// callback spends its flow (lib/identity/spent-flows.ts) in the transaction of what it did, so a
// second use of the same answer is refused and writes nothing.

/** Who the provider says signed in: its verified ID token's `iss` and `sub`, and the email it gave (ID token or UserInfo). */
export type ProviderIdentity = { issuer: string; subject: string; email: unknown; emailVerified: unknown };

const replayed = () => new ApiError("oidc_replayed", "This answer of the identity provider was used before.");
const alreadyLinked = () => new ApiError("oidc_already_linked", "This identity at the provider is already linked to another account, or this account already has one from this provider.");

/** The provider's email as an account's (trimmed, lower-cased, a valid address), or oidc_no_email. */
function accountEmail(identity: ProviderIdentity): string {
  const email = credentialsSchema.shape.email.safeParse(identity.email);
  if (!email.success) throw new ApiError("oidc_no_email", "Your identity provider did not share an email address, which a new account needs.");
  return email.data;
}

const findIdentity = async (identity: ProviderIdentity) =>
  (await db()).federatedIdentity.findUnique({ where: { issuer_subject: { issuer: identity.issuer, subject: identity.subject } }, select: { id: true, userId: true } });

/**
 * Signs in the account of `identity`, making it on the identity's first sign-in; returns the
 * account's id. A race lost to another use of the same answer is oidc_replayed; to the same
 * person's other first sign-in, or to a sign-up with the email, it looks again.
 */
export async function signInIdentity(flow: Flow, identity: ProviderIdentity, origin: RequestOrigin): Promise<string> {
  const prisma = await db();
  for (let attempt = 1; ; attempt++) {
    const known = await findIdentity(identity);
    try {
      if (known !== null) {
        const [, used] = await statementsInOneTransaction([
          spendFlow(prisma, flow),
          prisma.federatedIdentity.updateMany({ where: { id: known.id }, data: { lastUsedAt: new Date() } }),
          identityRecord(prisma, known.id, "provider_signed_in", randomId(), origin),
        ]);
        // Unlinked since it was found: it no longer signs anyone in.
        if (used.count === 0) throw new ApiError("oidc_state_mismatch", "This identity was unlinked from its account while the sign-in completed. Start again.");
        return known.userId;
      }
      const email = accountEmail(identity);
      if ((await prisma.user.count({ where: { email } })) > 0) {
        throw new ApiError("oidc_email_taken", "An account with this email already exists. Sign in to it, then link your identity provider from its settings.");
      }
      const userId = randomId();
      const identityId = randomId();
      const createdAt = new Date();
      await statementsInOneTransaction([
        spendFlow(prisma, flow),
        // The provider's email_verified is the account's: its email is shown as verified from the start.
        prisma.user.create({ data: { id: userId, email, passwordHash: null, createdAt, emailVerifiedAt: identity.emailVerified === true ? createdAt : null } }),
        prisma.federatedIdentity.create({
          data: { id: identityId, issuer: identity.issuer, subject: identity.subject, userId, email, emailVerified: identity.emailVerified === true, createdAt, lastUsedAt: createdAt },
        }),
        identityRecord(prisma, identityId, "provider_signed_in", randomId(), origin),
      ]);
      return userId;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      if (await flowSpent(flow)) throw replayed();
      if (attempt === 2) throw error;
    }
  }
}

/**
 * Links `identity` to the account `userId` that started the flow (signed in to it, from its
 * settings). An identity linked to this account already is left as it is; one of another account,
 * or a second identity of the same provider, is oidc_already_linked.
 */
export async function linkIdentity(flow: Flow, userId: string, identity: ProviderIdentity, origin: RequestOrigin): Promise<void> {
  const prisma = await db();
  const known = await findIdentity(identity);
  if (known !== null && known.userId !== userId) throw alreadyLinked();
  const email = credentialsSchema.shape.email.safeParse(identity.email);
  const identityId = randomId();
  const createdAt = new Date();
  try {
    if (known !== null) {
      await statementsInOneTransaction([spendFlow(prisma, flow), prisma.federatedIdentity.updateMany({ where: { id: known.id }, data: { lastUsedAt: createdAt } })]);
      return;
    }
    await statementsInOneTransaction([
      spendFlow(prisma, flow),
      prisma.federatedIdentity.create({
        data: {
          id: identityId,
          issuer: identity.issuer,
          subject: identity.subject,
          userId,
          email: email.success ? email.data : null,
          emailVerified: email.success && identity.emailVerified === true,
          createdAt,
          lastUsedAt: createdAt,
        },
      }),
      identityRecord(prisma, identityId, "provider_linked", identityId, origin),
    ]);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    if (await flowSpent(flow)) throw replayed();
    throw alreadyLinked();
  }
}
