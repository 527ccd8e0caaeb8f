import fc from "fast-check";
import { db } from "@/lib/database/db";
import { MAX_FORM_BODY_BYTES } from "@/lib/api/body";
import { randomId } from "@/lib/secrets";
import { cookieHeader, newAccount, sessionTokenOf, signIn, signOut, SITE } from "./forms";
import {
  clientHeadersArb,
  declaredLengthArb,
  fillCookie,
  formBodySpecArb,
  formContentTypeArb,
  formOriginArb,
  returnToQueryArb,
  sendToRoute,
  sessionCookieArb,
  type BodySpec,
  type CookieSessions,
  type FormField,
  type FormSent,
  type HeaderList,
  type OriginHeaders,
} from "./hostile";
import { dispatch } from "./in-process";
import { PASSWORD } from "./journey.mjs";

// The fixture of the hostile form properties (tests/api/hostile/forms-*.test.ts, and the
// accounts of hostile/token-form.test.ts): the people and sessions they post as, the generated
// parts of a form post, and the post itself. The checks of each answer: hostile.ts
// (checkFormAnswer, assertHostileForm).

/** A person signed in, and a second session of theirs that has been signed out: its cookie must open nothing. */
export async function signedInPerson() {
  const person = await newAccount();
  const signedOut = sessionTokenOf(await signIn({ email: person.email, password: PASSWORD }));
  if (signedOut === null) throw new Error("sign-in failed");
  await signOut(signedOut);
  const prisma = await db();
  const { id } = await prisma.user.findUniqueOrThrow({ where: { email: person.email } });
  return { email: person.email, userId: id, session: person.token, signedOut };
}

/**
 * signedInPerson with a project of theirs and one of another person's, made directly: no key is
 * needed to post these forms, and none is made in the background.
 */
export async function signedInPersonWithProjects() {
  const person = await signedInPerson();
  const other = await newAccount();
  const prisma = await db();
  const { id: otherId } = await prisma.user.findUniqueOrThrow({ where: { email: other.email } });
  const ownProject = randomId();
  const othersProject = randomId();
  await prisma.project.create({ data: { id: ownProject, name: "Mine", ownerId: person.userId, createdAt: new Date() } });
  await prisma.project.create({ data: { id: othersProject, name: "Theirs", ownerId: otherId, createdAt: new Date() } });
  return { ...person, otherId, otherSession: other.token, ownProject, othersProject };
}

/** Posts a team form as this site's page does, signed in with `session`. */
const teamForm = (session: string, path: string, fields: Record<string, string>) =>
  dispatch("POST", path, {
    body: new URLSearchParams(fields).toString(),
    headers: { origin: SITE, "content-type": "application/x-www-form-urlencoded", ...cookieHeader(session) },
  });

/** The team id of a /teams/{id}?… Location: what the new-team and Join forms answer on success. */
async function teamIdIn(response: Response, what: string): Promise<string> {
  const location = response.headers.get("location") ?? "";
  const id = /^[^?#]*\/teams\/([A-Za-z0-9_-]{22})\?/.exec(location)?.[1];
  if (response.status !== 303 || id === undefined) throw new Error(`${what} failed: ${response.status} ${location} ${await response.text()}`);
  return id;
}

/** Makes a team through the new-team form of /teams, as a person would: its id. */
async function teamMadeBy(session: string, name: string): Promise<string> {
  return teamIdIn(await teamForm(session, "/teams/create", { name }), `creating the team ${name}`);
}

/** `inviter` invites `email` as a member through the invite form, and `invitee` joins through the invitation's link. */
async function joinedThroughInvitation(teamId: string, inviter: string, email: string, invitee: string): Promise<void> {
  const invited = await teamForm(inviter, `/teams/${teamId}/invitations/create`, { email, role: "member" });
  const { url } = (await invited.json()) as { url?: string };
  // The link carries the token in its fragment (lib/teams/invitations.ts); the page posts it.
  const token = url === undefined ? null : new URLSearchParams(new URL(url).hash.slice(1)).get("token");
  if (invited.status !== 201 || token === null) throw new Error(`inviting ${email} failed: ${invited.status}`);
  const joined = await teamIdIn(await teamForm(invitee, "/teams/join/accept", { token }), `${email} joining`);
  if (joined !== teamId) throw new Error(`${email} joined ${joined}, not ${teamId}`);
}

/**
 * signedInPersonWithProjects who owns a team, made through the new-team form as a person would,
 * with a second member who joined through the invite form and the invitation's link; and two
 * teams of the other person's: `othersTeam`, which the person is not in, and `joinedTeam`, which
 * the person joined as a plain member (so that the team forms' role checks get refused there).
 * Each team form's success is checked here: a fixture that fails says so before any property runs.
 */
export async function signedInPersonWithTeams() {
  const person = await signedInPersonWithProjects();
  const second = await newAccount();
  const prisma = await db();
  const { id: memberId } = await prisma.user.findUniqueOrThrow({ where: { email: second.email } });
  const ownTeam = await teamMadeBy(person.session, "Ours");
  await joinedThroughInvitation(ownTeam, person.session, second.email, second.token);
  const othersTeam = await teamMadeBy(person.otherSession, "Theirs");
  const joinedTeam = await teamMadeBy(person.otherSession, "Joined");
  await joinedThroughInvitation(joinedTeam, person.otherSession, person.email, person.session);
  return { ...person, member: { userId: memberId, email: second.email }, ownTeam, othersTeam, joinedTeam };
}

/** What a property generates of a form post; a route's own parts (path segments) come on top. */
export type FormInput = {
  origin: OriginHeaders;
  cookie: string | undefined;
  contentType: string | undefined;
  declaredLength: string | undefined;
  body: BodySpec;
  headers: HeaderList;
  query: string;
};

/** The fields of an fc.record of FormInput, in the order they are generated (which the fixed seed depends on). */
type FormInputModel = { [K in keyof FormInput]: fc.Arbitrary<FormInput[K]> };

/** The client's own headers, without Cookie (the input's cookie is that one). */
const formHeadersArb = () => clientHeadersArb().map((headers) => headers.filter(([name]) => name !== "cookie"));

/** What this site's own page sends: its Origin, or Sec-Fetch-Site without one. */
export const OWN_PAGE: OriginHeaders[] = [{ origin: SITE }, { origin: "null", fetchSite: "same-origin" }, { fetchSite: "same-origin" }];

/**
 * A post as this site's page makes it (a form, no lying length), so that the fields, the
 * session and the state of the rows decide the answer.
 */
export function ownPagePost(origin: fc.Arbitrary<OriginHeaders>, cookie: fc.Arbitrary<string | undefined>, body: fc.Arbitrary<BodySpec>): FormInputModel {
  return {
    origin,
    cookie,
    contentType: fc.constantFrom("application/x-www-form-urlencoded", "application/x-www-form-urlencoded;charset=UTF-8"),
    declaredLength: fc.constant(undefined),
    body,
    headers: formHeadersArb(),
    query: returnToQueryArb(),
  };
}

/**
 * Any post: origins, cookies (the valid session `cookieWeight` times in the mix), content
 * types, lying lengths, bodies (`pairs` encoded, garbage, or `hugePrefix` and filler past the
 * form limit), headers and return targets.
 */
export function anyPost(pairs: fc.Arbitrary<FormField[]>, hugePrefix: string, cookieWeight?: number): FormInputModel {
  return {
    origin: formOriginArb(SITE),
    cookie: sessionCookieArb(cookieWeight),
    contentType: formContentTypeArb(),
    declaredLength: declaredLengthArb(),
    body: formBodySpecArb(pairs, MAX_FORM_BODY_BYTES, hugePrefix),
    headers: formHeadersArb(),
    query: returnToQueryArb(),
  };
}

type FormRoute<P> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;

type Post<P> = {
  /** The URL's path, before the input's query. */
  path: string;
  /** As Next hands them to the handler. */
  params: P;
  /** The request, as a failure names it. */
  shown: string;
  input: FormInput;
  /** The body sent, when the input's is filled in first. */
  body?: BodySpec;
  sessions: CookieSessions;
  /** What must not come back in Location. */
  secrets: string[];
};

/** Posts a generated form to its route handler, as server.mjs would hand it over. */
export async function postForm<P>(route: FormRoute<P>, { path, params, shown, input, body = input.body, sessions, secrets }: Post<P>): Promise<FormSent> {
  const { origin, cookie, contentType, declaredLength, headers, query } = input;
  const extra = {
    cookie: cookie === undefined ? undefined : fillCookie(cookie, sessions),
    origin: origin.origin,
    "sec-fetch-site": origin.fetchSite,
    "content-type": contentType,
    "content-length": declaredLength,
  };
  return { ...(await sendToRoute(route, { method: "POST", path, query, params, headers, extra, body, shown })), secrets };
}
