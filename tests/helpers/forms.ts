import { POST as signInRoute } from "@/app/auth/signin/route";
import { POST as signOutRoute } from "@/app/auth/signout/route";
import { POST as signUpRoute } from "@/app/auth/signup/route";
import { POST as approveRoute } from "@/app/init/[id]/approve/route";
import { POST as denyRoute } from "@/app/init/[id]/deny/route";
import { POST as revokeLinkRoute } from "@/app/projects/[id]/links/[linkId]/revoke/route";
import { POST as createTokenRoute } from "@/app/settings/tokens/create/route";
import { POST as revokeTokenRoute } from "@/app/settings/tokens/[id]/revoke/route";

// Posts HTML forms to the real route handlers, as a browser on APP_URL's page would.
export const SITE = "https://initlink.test";
export const COOKIE_NAME = "__Host-initlink_session";

type Route<P> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;

function post<P>(route: Route<P>, path: string, params: P, fields: Record<string, string>, headers: Record<string, string>) {
  const request = new Request(`http://localhost:3000${path}`, {
    method: "POST",
    body: new URLSearchParams(fields).toString(),
    headers: { origin: SITE, "content-type": "application/x-www-form-urlencoded", "x-initlink-peer": "127.0.0.1", ...headers },
  });
  return route(request, { params: Promise.resolve(params) });
}

export const cookieHeader = (token: string) => ({ cookie: `${COOKIE_NAME}=${token}` });

export const signUp = (fields: Record<string, string>, query = "", headers: Record<string, string> = {}) => post(signUpRoute, `/auth/signup${query}`, {}, fields, headers);
export const signIn = (fields: Record<string, string>, query = "", headers: Record<string, string> = {}) => post(signInRoute, `/auth/signin${query}`, {}, fields, headers);
export const signOut = (token: string) => post(signOutRoute, "/auth/signout", {}, {}, cookieHeader(token));
export const approve = (id: string, token: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  post(approveRoute, `/init/${id}/approve`, { id }, fields, { ...cookieHeader(token), ...headers });
export const deny = (id: string, token: string, headers: Record<string, string> = {}) => post(denyRoute, `/init/${id}/deny`, { id }, {}, { ...cookieHeader(token), ...headers });

export const createTokenForm = (token: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  post(createTokenRoute, "/settings/tokens/create", {}, fields, { ...cookieHeader(token), ...headers });
export const revokeTokenForm = (token: string, id: string, headers: Record<string, string> = {}) =>
  post(revokeTokenRoute, `/settings/tokens/${id}/revoke`, { id }, {}, { ...cookieHeader(token), ...headers });
export const revokeLinkForm = (token: string, id: string, linkId: string, headers: Record<string, string> = {}) =>
  post(revokeLinkRoute, `/projects/${id}/links/${linkId}/revoke`, { id, linkId }, {}, { ...cookieHeader(token), ...headers });

/** The session token a response set, or null. */
export function sessionTokenOf(response: Response): string | null {
  const match = new RegExp(`${COOKIE_NAME}=([^;]*)`).exec(response.headers.get("set-cookie") ?? "");
  return match && match[1] !== "" ? match[1] : null;
}

let accounts = 0;
/** Signs up a fresh account and returns its session token. */
export async function newAccount(): Promise<{ email: string; token: string }> {
  accounts += 1;
  const email = `person${accounts}-${Date.now()}@example.com`;
  const response = await signUp({ email, password: "correct horse battery" });
  const token = sessionTokenOf(response);
  if (token === null) throw new Error(`sign-up failed: ${response.headers.get("location")}`);
  return { email, token };
}
