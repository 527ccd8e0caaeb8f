import { createRemoteJWKSet, jwtVerify } from "jose";

/**
 * Your API's check of a link bearer, offline: the signature against initlink's published keys
 * (fetched once and cached), the issuer, the project it was made for, its expiry. Answers who
 * approved the client: `account_id` (and, for an account from your identity provider, its
 * `{iss, sub}` there), or throws for a bearer that does not verify. It cannot see a revocation:
 * introspect for that (introspect.ts).
 */
export function bearerVerifier(initlink: string) {
  const jwks = createRemoteJWKSet(new URL("/.well-known/jwks.json", initlink));
  return async function userOf(authorization: string, projectId: string) {
    const { payload } = await jwtVerify(authorization.replace(/^Bearer /, ""), jwks, {
      issuer: initlink,
      audience: `${initlink}/api/projects/${projectId}`,
      algorithms: ["EdDSA"],
      typ: "at+jwt",
    });
    return { accountId: String(payload.account_id), upstream: payload.account_upstream, linkId: String(payload.sub) };
  };
}
