import fc from "fast-check";
import { db } from "@/lib/database/db";
import { MAX_FORM_BODY_BYTES } from "@/lib/api/body";
import { randomId } from "@/lib/secrets";
import { newAccount, sessionTokenOf, signIn, signOut, SITE } from "./forms";
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
  return { ...person, otherId, ownProject, othersProject };
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
