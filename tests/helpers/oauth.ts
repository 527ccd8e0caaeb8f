import { createHash, randomBytes } from "node:crypto";
import { config } from "@/lib/config";
import { effectiveStatus } from "@/lib/init/init-lifecycle";
import { clientReturn } from "@/lib/oauth/authorization-code";
import { createAccessToken } from "@/lib/access-tokens/issue-access-token";
import { db } from "@/lib/database/db";
import { createResourceServer } from "@/lib/resource-servers/manage-resource-servers";
import { dispatch } from "./in-process";
import { approve, COOKIE_NAME, deny, newAccount, SITE } from "./forms";

// The OAuth endpoints through the real route handlers (tests/helpers/in-process.ts), as a
// public client sends them: form fields (RFC 6749 §3.2, RFC 8628 §3.1).

export const DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
export const CLIENT_ID = "@acme/cli";

/** `headers` adds to a public client's (a `DPoP` proof). */
const form = (fields: Record<string, string> | string, headers: Record<string, string> = {}) => ({
  body: typeof fields === "string" ? fields : new URLSearchParams(fields).toString(),
  headers: { "content-type": "application/x-www-form-urlencoded", "user-agent": "acme-cli/1.0", ...headers },
});

export const postDeviceAuthorization = (fields: Record<string, string> | string, headers: Record<string, string> = {}) =>
  dispatch("POST", "/api/oauth/device_authorization", form(fields, headers));
export const postToken = (fields: Record<string, string> | string, headers: Record<string, string> = {}) => dispatch("POST", "/api/oauth/token", form(fields, headers));

export type DeviceAuthorization = { device_code: string; user_code: string; verification_uri: string; verification_uri_complete: string; expires_in: number; interval: number };

export async function deviceAuthorized(clientId = CLIENT_ID, headers: Record<string, string> = {}): Promise<DeviceAuthorization & { initId: string }> {
  const response = await postDeviceAuthorization({ client_id: clientId }, headers);
  if (response.status !== 200) throw new Error(`device authorization answered ${response.status}: ${await response.text()}`);
  const answer = (await response.json()) as DeviceAuthorization;
  return { ...answer, initId: answer.verification_uri_complete.split("/").at(-1) ?? "" };
}

export const exchange = (deviceCode: string, clientId = CLIENT_ID, headers: Record<string, string> = {}) =>
  postToken({ grant_type: DEVICE_CODE_GRANT, device_code: deviceCode, client_id: clientId }, headers);

/** A new person approves the device authorization (sent with `headers`) into a new project, typing its code. */
export async function approvedDevice(name = "Device app", headers: Record<string, string> = {}) {
  const device = await deviceAuthorized(CLIENT_ID, headers);
  const person = await newAccount();
  const answer = await approve(device.initId, person.token, { project: "new", name, user_code: device.user_code });
  if (answer.status !== 303 || (answer.headers.get("location") ?? "").includes("error=")) throw new Error(`approval refused: ${answer.headers.get("location")}`);
  return { ...device, person };
}

/** A new person denies it. */
export async function deniedDevice() {
  const device = await deviceAuthorized();
  const person = await newAccount();
  await deny(device.initId, person.token);
  return device;
}

export const refresh = (refreshToken: string, clientId = CLIENT_ID, headers: Record<string, string> = {}) =>
  postToken({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: clientId }, headers);
export const postRevocation = (fields: Record<string, string> | string) => dispatch("POST", "/api/oauth/revoke", form(fields));
export const revoke = (token: string, clientId = CLIENT_ID) => postRevocation({ token, client_id: clientId });

export const postIntrospection = (fields: Record<string, string> | string, headers: Record<string, string> = {}) => {
  const request = form(fields);
  return dispatch("POST", "/api/oauth/introspect", { body: request.body, headers: { ...request.headers, ...headers } });
};
/** A resource server's client_id and secret (lib/resource-servers/). */
export type ResourceServer = { clientId: string; clientSecret: string };

/** RFC 6749 §2.3.1: each form-encoded, then RFC 7617's base64 of `id:secret`. */
export const basicAuthorization = ({ clientId, clientSecret }: ResourceServer) =>
  `Basic ${Buffer.from(`${new URLSearchParams({ a: clientId }).toString().slice(2)}:${new URLSearchParams({ a: clientSecret }).toString().slice(2)}`).toString("base64")}`;

/** RFC 7662 §2.1, authenticated with `credential`: an access token of the project's owner (Bearer), or a resource server's (Basic). */
export async function introspect(token: string, credential: string | ResourceServer): Promise<Record<string, unknown>> {
  const authorization = typeof credential === "string" ? `Bearer ${credential}` : basicAuthorization(credential);
  const response = await postIntrospection({ token }, { authorization });
  if (response.status !== 200) throw new Error(`introspection answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

export type Tokens = { access_token: string; refresh_token: string; token_type: string; expires_in: number; project_id: string; project_url: string };

export async function tokensOf(response: Response): Promise<Tokens> {
  if (response.status !== 200) throw new Error(`token endpoint answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Tokens;
}

/** A device authorization approved by a new person and exchanged: the client's first tokens, and who approved. */
export async function loggedIn(name = "OAuth app") {
  const device = await approvedDevice(name);
  const tokens = await tokensOf(await exchange(device.device_code));
  const prisma = await db();
  const owner = await prisma.user.findUniqueOrThrow({ where: { email: device.person.email }, select: { id: true } });
  return { device, tokens, person: device.person, userId: owner.id };
}

/** An access token the owner makes on the settings page: for one project, or `all` of theirs. */
export async function ownerToken(userId: string, scope: string): Promise<string> {
  return (await createAccessToken(userId, { name: "Verifier", scope, lifetime: "30" })).token;
}

/** A resource-server credential the owner makes on the settings page, for `projectIds` (theirs). */
export async function resourceServer(userId: string, projectIds: string[]): Promise<ResourceServer> {
  const made = await createResourceServer(userId, { name: "Platform API", projects: projectIds });
  return { clientId: made.client_id, clientSecret: made.client_secret };
}

/** The authorization code flow (RFC 6749 §4.1 with PKCE, RFC 7636), as a native client on a loopback port makes it. */
export const REDIRECT_URI = "http://127.0.0.1:43117/callback";

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** The authorization request's parameters: a valid one, with `overrides` (undefined removes a parameter). */
export function authorizationQuery(challenge: string, overrides: Record<string, string | undefined> = {}): URLSearchParams {
  const parameters: Record<string, string | undefined> = {
    response_type: "code",
    client_id: CLIENT_ID,
    redirect_uri: REDIRECT_URI,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "af0ifjsldkj",
    ...overrides,
  };
  return new URLSearchParams(Object.entries(parameters).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** GET /oauth/authorize as the browser opens it; `cookie`: a signed-in browser's. */
export const authorizeRequest = (query: URLSearchParams | string, headers: Record<string, string> = {}) =>
  dispatch("GET", `/oauth/authorize?${query.toString()}`, { headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/131", ...headers } });

/** The init an authorization request went on to (its id from the 303's Location), and the mark of the browser that opened it (lib/init/authorizing-browser.ts). */
export async function authorizationInit(query: URLSearchParams): Promise<{ initId: string; mark: string }> {
  const response = await authorizeRequest(query);
  const id = /\/init\/([A-Za-z0-9_-]{22})$/.exec(response.headers.get("location") ?? "")?.[1];
  const mark = (response.headers.get("set-cookie") ?? "").split(";")[0];
  if (response.status !== 303 || id === undefined || !mark.startsWith("__Secure-initlink_authorizing=")) throw new Error(`authorization request answered ${response.status} ${response.headers.get("location")}`);
  return { initId: id, mark };
}

/** Approves in the browser that opened the request (its mark beside the session), into a new project. */
export const approveInAuthorizingBrowser = (initId: string, mark: string, session: string, fields: Record<string, string> = { project: "new", name: "Code app" }) =>
  dispatch("POST", `/init/${initId}/approve`, {
    body: new URLSearchParams(fields).toString(),
    headers: { origin: SITE, "content-type": "application/x-www-form-urlencoded", cookie: `${COOKIE_NAME}=${session}; ${mark}` },
  });

/** Where the init page of an authorization request sends `viewer`'s browser now, in the browser that opened it unless `authorizingBrowser` is false (lib/oauth/authorization-code.ts). */
export async function clientReturnOf(initId: string, viewerEmail: string, authorizingBrowser = true, document = true) {
  const prisma = await db();
  const viewer = await prisma.user.findUniqueOrThrow({ where: { email: viewerEmail }, select: { id: true } });
  const init = await prisma.init.findUniqueOrThrow({ where: { id: initId }, select: { status: true, expiresAt: true, approvedById: true, deniedById: true } });
  return clientReturn(config(), initId, { ...init, status: effectiveStatus(init.status, init.expiresAt, Date.now()) }, viewer.id, { authorizing: authorizingBrowser, document });
}

/** An authorization request a new person approved into a new project: the redirect the page sends the browser to, parsed. */
export async function approvedAuthorization(query: URLSearchParams) {
  const { initId, mark } = await authorizationInit(query);
  const person = await newAccount();
  const answer = await approveInAuthorizingBrowser(initId, mark, person.token);
  if (answer.status !== 303 || (answer.headers.get("location") ?? "").includes("error=")) throw new Error(`approval refused: ${answer.headers.get("location")}`);
  const back = await clientReturnOf(initId, person.email);
  if (back?.kind !== "go") throw new Error(`no way back: ${back?.kind}`);
  const redirect = new URL(back.url);
  return { initId, person, redirect, code: redirect.searchParams.get("code") ?? "" };
}

export const exchangeCode = (code: string, verifier: string, overrides: Record<string, string | undefined> = {}, headers: Record<string, string> = {}) => {
  const fields: Record<string, string | undefined> = { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, client_id: CLIENT_ID, code_verifier: verifier, ...overrides };
  return postToken(Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined)), headers);
};
