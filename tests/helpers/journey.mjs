// @ts-check
// The journey every suite needs: a person signs up, approves a client's init into a new
// project, and the client collects its access token with the init's secret and links itself to
// the project. Written once against a transport (Send), so that the API tests run it in process
// (tests/helpers/in-process.ts), the end-to-end tests through Playwright (tests/e2e/flow.ts) and
// the load scripts over node:http (tests/load/load-tools.mjs). Plain JavaScript: plain node runs
// the load scripts.
import { randomBytes } from "node:crypto";

/**
 * What a transport hands back: header names in lower case, a repeated header (Set-Cookie)
 * joined by "\n".
 * @typedef {{ status: number, headers: Record<string, string>, text: string }} Answer
 */

/**
 * One request to the service; `path` starts at its root and may carry a query.
 * @typedef {(method: string, path: string, body?: string, headers?: Record<string, string>) => Promise<Answer>} Send
 */

/** @typedef {{ id: string, url: string, redirect_url: string, interval: number, timestamp: number, user_code: string, expires_at: number, secret: string }} CreatedInit */
/** @typedef {{ status: string, project_id: string, access_token: string, project: { id: string, name: string, team_id: string | null } }} TokenPickup */
/** @typedef {{ success: true, bearer: string, public: string, public_fingerprint: string, link_id: string, expires_at: number }} LinkSuccess */
/** @typedef {{ email: string, password: string, session: string, cookie: string }} Person */

export const PASSWORD = "correct horse battery";

let people = 0;
/** An address no other person of this process has. @param {string} prefix */
export const newEmail = (prefix) => `${prefix}-${Date.now()}-${++people}@example.com`;

export const randomIv = () => randomBytes(16).toString("hex");

/** The session cookie's name: the `__Host-` prefix needs https. @param {string} site APP_URL */
export const sessionCookieName = (site) => (site.startsWith("https:") ? "__Host-initlink_session" : "initlink_session");

/**
 * The session token that Set-Cookie header values start, or null (none, or one that ends it).
 * @param {string} setCookie @param {string} site
 * @returns {string | null}
 */
export function sessionTokenIn(setCookie, site) {
  const match = new RegExp(`${sessionCookieName(site)}=([^;]*)`).exec(setCookie);
  return match && match[1] !== "" ? match[1] : null;
}

/** @param {Answer} answer @param {number} expected @param {string} step */
function expectStatus(answer, expected, step) {
  if (answer.status !== expected) throw new Error(`${step} answered ${answer.status}: ${answer.text}`);
  return answer;
}

/** What a browser on the site's own page sends with a form. @param {string} site @param {Record<string, string>} [headers] */
const formHeaders = (site, headers = {}) => ({ "content-type": "application/x-www-form-urlencoded", origin: site, ...headers });

/**
 * A person signs up from the site's page; a refusal throws.
 * @param {Send} send @param {{ site: string, email: string, password?: string }} person
 * @returns {Promise<Person>}
 */
export async function signUp(send, { site, email, password = PASSWORD }) {
  const answer = expectStatus(await send("POST", "/auth/signup", new URLSearchParams({ email, password }).toString(), formHeaders(site)), 303, "sign-up");
  const session = sessionTokenIn(answer.headers["set-cookie"] ?? "", site);
  if (session === null) throw new Error(`sign-up refused: ${answer.headers.location}`);
  return { email, password, session, cookie: `${sessionCookieName(site)}=${session}` };
}

/**
 * Create Init; anything but a 201 throws.
 * @param {Send} send @param {unknown} [fields] @param {Record<string, string>} [headers]
 * @returns {Promise<CreatedInit>}
 */
export async function createInit(send, fields = { sender: "@acme/cli" }, headers = {}) {
  const answer = expectStatus(await send("POST", "/api/init", JSON.stringify(fields), { ...headers, "content-type": "application/json" }), 201, "Create Init");
  return JSON.parse(answer.text);
}

/**
 * The person approves an init into a new project named `name`. The answer is a 303 either way;
 * the approval went through when it leads to the init's page (a refusal leads back with `error=`).
 * @param {Send} send @param {string} site @param {string} cookie @param {string} initId @param {string} name
 * @returns {Promise<boolean>}
 */
export async function approvedIntoNewProject(send, site, cookie, initId, name) {
  const path = `/init/${encodeURIComponent(initId)}`;
  const fields = new URLSearchParams({ project: "new", name, code_confirmed: "yes" }).toString();
  const answer = await send("POST", `${path}/approve`, fields, formHeaders(site, { cookie }));
  return answer.status === 303 && answer.headers.location === new URL(path, site).toString();
}

/**
 * The client collects its access token: a status request with the init's secret, once the init
 * is approved. Anything but a 200 with a token throws.
 * @param {Send} send @param {CreatedInit} init @param {Record<string, string>} [headers]
 * @returns {Promise<TokenPickup>}
 */
export async function pickUpToken(send, init, headers = {}) {
  const answer = expectStatus(await send("GET", `/api/init/${encodeURIComponent(init.id)}`, undefined, { ...headers, authorization: `Bearer ${init.secret}` }), 200, "token pickup");
  const status = JSON.parse(answer.text);
  if (typeof status.access_token !== "string") throw new Error(`no access token: ${answer.text}`);
  return status;
}

const KEY_RETRIES = 30;

/**
 * Create Project Link with an access token; anything but a 200 (after waiting out a key still
 * being generated) throws.
 * @param {Send} send @param {string} projectId @param {string} accessToken
 * @param {{ iv?: string, headers?: Record<string, string> }} [options] a fresh iv unless given
 * @returns {Promise<LinkSuccess & { iv: string }>}
 */
export async function createLink(send, projectId, accessToken, { iv = randomIv(), headers = {} } = {}) {
  const path = `/api/projects/${encodeURIComponent(projectId)}/link/${encodeURIComponent(iv)}`;
  const request = () => send("POST", path, undefined, { ...headers, authorization: `Bearer ${accessToken}` });
  let answer = await request();
  // A new project's key may still be on its way (503 key_not_ready): retry as Retry-After says.
  for (let retries = 0; answer.status === 503 && retries < KEY_RETRIES; retries++) {
    await new Promise((resolve) => setTimeout(resolve, Number(answer.headers["retry-after"] ?? 1) * 1000));
    answer = await request();
  }
  expectStatus(answer, 200, "Create Project Link");
  return { ...JSON.parse(answer.text), iv };
}

/**
 * @typedef {object} JourneyOptions
 * @property {string} site APP_URL: the origin of the forms, and the session cookie's name
 * @property {string} email
 * @property {string} [password]
 * @property {string} [name] the new project's
 * @property {unknown} [init] Create Init's body
 * @property {Record<string, string>} [client] the headers of the client's own requests
 */

/**
 * Sign-up, Create Init, approval into a new project, token pickup: a client holding an access
 * token to a project of the person's.
 * @param {Send} send @param {JourneyOptions} options
 */
export async function approvedClient(send, { site, email, password, name = "My app", init: fields, client = {} }) {
  const person = await signUp(send, { site, email, password });
  const init = await createInit(send, fields, client);
  if (!(await approvedIntoNewProject(send, site, person.cookie, init.id, name))) throw new Error(`approval of ${init.id} refused`);
  const pickup = await pickUpToken(send, init, client);
  return { ...person, init, projectId: pickup.project_id, accessToken: pickup.access_token };
}

/**
 * The whole journey, up to a link: a client holding a link bearer too.
 * @param {Send} send @param {JourneyOptions} options
 */
export async function linkedClient(send, options) {
  const client = await approvedClient(send, options);
  const link = await createLink(send, client.projectId, client.accessToken, { headers: options.client });
  return { ...client, link, bearer: link.bearer };
}
