import { dispatch, inProcess } from "./in-process";
import { newEmail, sessionCookieName, sessionTokenIn, signUp as signUpStep } from "./journey.mjs";

// Posts HTML forms to the real route handlers, as a browser on APP_URL's page would.
export const SITE = "https://initlink.test";
export const COOKIE_NAME = sessionCookieName(SITE);

function post(path: string, fields: Record<string, string>, headers: Record<string, string>) {
  const body = new URLSearchParams(fields).toString();
  return dispatch("POST", path, { body, headers: { origin: SITE, "content-type": "application/x-www-form-urlencoded", ...headers } });
}

export const cookieHeader = (token: string) => ({ cookie: `${COOKIE_NAME}=${token}` });

export const signUp = (fields: Record<string, string>, query = "", headers: Record<string, string> = {}) => post(`/auth/signup${query}`, fields, headers);
export const signIn = (fields: Record<string, string>, query = "", headers: Record<string, string> = {}) => post(`/auth/signin${query}`, fields, headers);
export const signOut = (token: string) => post("/auth/signout", {}, cookieHeader(token));
export const approve = (id: string, token: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  post(`/init/${encodeURIComponent(id)}/approve`, fields, { ...cookieHeader(token), ...headers });
export const deny = (id: string, token: string, headers: Record<string, string> = {}) => post(`/init/${encodeURIComponent(id)}/deny`, {}, { ...cookieHeader(token), ...headers });

export const createTokenForm = (token: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  post("/settings/tokens/create", fields, { ...cookieHeader(token), ...headers });
export const revokeTokenForm = (token: string, id: string, headers: Record<string, string> = {}) =>
  post(`/settings/tokens/${encodeURIComponent(id)}/revoke`, {}, { ...cookieHeader(token), ...headers });
export const createResourceServerForm = (token: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  post("/settings/resource-servers/create", fields, { ...cookieHeader(token), ...headers });
export const revokeResourceServerForm = (token: string, id: string, headers: Record<string, string> = {}) =>
  post(`/settings/resource-servers/${encodeURIComponent(id)}/revoke`, {}, { ...cookieHeader(token), ...headers });
export const revokeLinkForm = (token: string, id: string, linkId: string, headers: Record<string, string> = {}) =>
  post(`/projects/${encodeURIComponent(id)}/links/${encodeURIComponent(linkId)}/revoke`, {}, { ...cookieHeader(token), ...headers });

export const signOutSessionForm = (token: string, id: string, headers: Record<string, string> = {}) =>
  post(`/settings/sessions/${encodeURIComponent(id)}/signout`, {}, { ...cookieHeader(token), ...headers });
export const signOutOthersForm = (token: string, headers: Record<string, string> = {}) => post("/settings/sessions/signout-others", {}, { ...cookieHeader(token), ...headers });
export const changePasswordForm = (token: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  post("/settings/password/change", fields, { ...cookieHeader(token), ...headers });
export const savePrivacyForm = (token: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  post("/settings/privacy/save", fields, { ...cookieHeader(token), ...headers });

/** The session token a response set, or null. */
export const sessionTokenOf = (response: Response): string | null => sessionTokenIn(response.headers.get("set-cookie") ?? "", SITE);

/** Signs up a fresh account and returns its session token. */
export async function newAccount(): Promise<{ email: string; token: string }> {
  const person = await signUpStep(inProcess, { site: SITE, email: newEmail("person") });
  return { email: person.email, token: person.session };
}

/** The mailed links' forms (lib/api/operations/account-recovery.ts). */
export const requestResetForm = (email: string, headers: Record<string, string> = {}) => post("/auth/password-reset/request", { email }, headers);
export const resetPasswordForm = (fields: Record<string, string>, headers: Record<string, string> = {}) => post("/auth/password-reset", fields, headers);
export const verifyEmailForm = (fields: Record<string, string>, headers: Record<string, string> = {}) => post("/auth/verify-email", fields, headers);
export const resendVerificationForm = (token: string, headers: Record<string, string> = {}) => post("/settings/email/verify", {}, { ...cookieHeader(token), ...headers });
export const renameProjectForm = (token: string, id: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  post(`/projects/${encodeURIComponent(id)}/rename`, fields, { ...cookieHeader(token), ...headers });
