/**
 * Whether a token is live right now (RFC 7662), asked with your API's resource-server credential
 * (made on /settings/resource-servers) as HTTP Basic (RFC 6749 §2.3.1). A revoked link, access
 * token or login answers `{ active: false }` at once. Keep an answer a few seconds rather than
 * ask on every request.
 */
export async function introspect(initlink: string, credential: { clientId: string; clientSecret: string }, token: string) {
  const basic = Buffer.from(`${encodeURIComponent(credential.clientId)}:${encodeURIComponent(credential.clientSecret)}`).toString("base64");
  const response = await fetch(new URL("/api/oauth/introspect", initlink), {
    method: "POST",
    headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token }),
  });
  if (!response.ok) throw new Error(`initlink's introspection answered ${response.status}`);
  return (await response.json()) as { active: boolean; project_id?: string; account_id?: string; client_id?: string; exp?: number };
}
