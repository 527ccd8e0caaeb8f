import { db } from "@/lib/database/db";
import { createdInit, getInitStatus } from "./api";
import { approve, cookieHeader, createTokenForm, newAccount, SITE } from "./forms";
import { dispatch } from "./in-process";

// Teams through their real route handlers (lib/api/operations/teams.ts), as the pages' forms post
// them, and the fixtures the team suites share: people, a team of three made through the forms,
// team projects made by approval, and clients approved into them.

export type Person = { email: string; session: string; userId: string };
export type TeamRoleName = "owner" | "admin" | "member";

/** A form post from this site's page, signed in with `session`. */
export function postForm(path: string, session: string, fields: Record<string, string> = {}, headers: Record<string, string> = {}) {
  return dispatch("POST", path, {
    body: new URLSearchParams(fields).toString(),
    headers: { origin: SITE, "content-type": "application/x-www-form-urlencoded", ...cookieHeader(session), ...headers },
  });
}

const at = (id: string) => encodeURIComponent(id);

export const createTeamForm = (session: string, name: string) => postForm("/teams/create", session, { name });
export const renameTeamForm = (session: string, teamId: string, name: string) => postForm(`/teams/${at(teamId)}/rename`, session, { name });
export const deleteTeamForm = (session: string, teamId: string) => postForm(`/teams/${at(teamId)}/delete`, session);
export const inviteForm = (session: string, teamId: string, fields: { email: string; role: TeamRoleName; any_email?: "yes" }) =>
  postForm(`/teams/${at(teamId)}/invitations/create`, session, fields);
export const revokeInvitationForm = (session: string, teamId: string, invitationId: string) => postForm(`/teams/${at(teamId)}/invitations/${at(invitationId)}/revoke`, session);
export const changeRoleForm = (session: string, teamId: string, userId: string, role: TeamRoleName) => postForm(`/teams/${at(teamId)}/members/${at(userId)}/role`, session, { role });
export const removeMemberForm = (session: string, teamId: string, userId: string, fields: { keep_links?: "yes" } = {}) =>
  postForm(`/teams/${at(teamId)}/members/${at(userId)}/remove`, session, fields);
export const acceptInvitationForm = (session: string, token: string) => postForm("/teams/join/accept", session, { token });
export const moveProjectForm = (session: string, projectId: string, teamId: string) => postForm(`/projects/${at(projectId)}/move`, session, { team: teamId });

export const locationOf = (response: Response) => response.headers.get("location");

/** The `error` a form's 303 leads back with; null for a success. */
export function formErrorOf(response: Response): string | null {
  if (response.status !== 303) throw new Error(`a form answered ${response.status}, not 303`);
  return new URL(locationOf(response) ?? "", SITE).searchParams.get("error");
}

/** A fresh account, signed in. */
export async function person(): Promise<Person> {
  const { email, token } = await newAccount();
  const { id } = await (await db()).user.findUniqueOrThrow({ where: { email }, select: { id: true } });
  return { email, session: token, userId: id };
}

export const people = (count: number) => Promise.all(Array.from({ length: count }, () => person()));

/** Makes a team through the new-team form: its id. */
export async function newTeam(owner: Person, name = "Platform"): Promise<string> {
  const response = await createTeamForm(owner.session, name);
  const id = /^https:\/\/initlink\.test\/teams\/([A-Za-z0-9_-]{22})\?created=1$/.exec(locationOf(response) ?? "")?.[1];
  if (response.status !== 303 || id === undefined) throw new Error(`making the team failed: ${response.status} ${locationOf(response)}`);
  return id;
}

export type Invitation = { id: string; url: string; emailed: boolean; token: string };

/** The token an invitation's link carries in its fragment (/teams/join#token=…). */
export const invitationToken = (url: string) => new URLSearchParams(new URL(url).hash.slice(1)).get("token") ?? "";

/** `inviter` invites `email` as `role` through the invite form (201 JSON); anything else throws. */
export async function invited(inviter: Person, teamId: string, email: string, role: TeamRoleName, anyEmail = false): Promise<Invitation> {
  const response = await inviteForm(inviter.session, teamId, { email, role, ...(anyEmail ? { any_email: "yes" as const } : {}) });
  if (response.status !== 201) throw new Error(`inviting ${email} answered ${response.status}: ${await response.text()}`);
  const answer = (await response.json()) as { id: string; url: string; emailed: boolean };
  return { ...answer, token: invitationToken(answer.url) };
}

/** `who` accepts the invitation through the Join form; anything but the team's page throws. */
export async function joined(who: Person, teamId: string, token: string): Promise<void> {
  const response = await acceptInvitationForm(who.session, token);
  if (locationOf(response) !== `${SITE}/teams/${teamId}?joined=1`) throw new Error(`joining failed: ${locationOf(response)}`);
}

/** `who` is invited as `role` by `inviter` and joins. */
export async function added(inviter: Person, teamId: string, who: Person, role: TeamRoleName): Promise<void> {
  await joined(who, teamId, (await invited(inviter, teamId, who.email, role)).token);
}

export type TeamOfThree = { teamId: string; owner: Person; admin: Person; member: Person };

/** A team made through the forms: its maker the owner, an admin and a member who joined through their invitations. */
export async function teamOfThree(name = "Platform"): Promise<TeamOfThree> {
  const [owner, admin, member] = await people(3);
  const teamId = await newTeam(owner, name);
  await Promise.all([added(owner, teamId, admin, "admin"), added(owner, teamId, member, "member")]);
  return { teamId, owner, admin, member };
}

export type CreatedInit = Awaited<ReturnType<typeof createdInit>>;

/** Approves `initId` into `project` (an id, or "new" with `fields` naming it); null when approved, else the error. */
export async function approvalError(initId: string, who: Person, fields: Record<string, string>): Promise<string | null> {
  return formErrorOf(await approve(initId, who.session, { code_confirmed: "yes", ...fields }));
}

/** `maker` (an admin or owner) makes a project in the team by approving an init into a new one: its id (the init's). */
export async function teamProject(maker: Person, teamId: string, name = "Shared"): Promise<string> {
  const init = await createdInit();
  const error = await approvalError(init.id, maker, { project: "new", name, team: teamId });
  if (error !== null) throw new Error(`making the team project failed: ${error}`);
  return init.id;
}

/** `owner` makes a personal project by approving an init into a new one: its id. */
export async function personalProject(owner: Person, name = "Personal"): Promise<string> {
  const init = await createdInit();
  const error = await approvalError(init.id, owner, { project: "new", name });
  if (error !== null) throw new Error(`making the personal project failed: ${error}`);
  return init.id;
}

export type Pickup = {
  status: string;
  project_id?: string;
  project?: { id: string; name: string; team_id: string | null };
  access_token?: string;
  error?: string;
};

/** The init's status as the holder of its secret reads it: the pickup. */
export async function pickup(init: CreatedInit): Promise<Pickup> {
  const response = await getInitStatus(init.id, { authorization: `Bearer ${init.secret}` });
  if (response.status !== 200) throw new Error(`the pickup answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Pickup;
}

/** A client `who` approves into `projectId`, and its pickup: the access token it holds. */
export async function approvedClientOf(who: Person, projectId: string) {
  const init = await createdInit();
  const error = await approvalError(init.id, who, { project: projectId });
  if (error !== null) throw new Error(`approving into ${projectId} failed: ${error}`);
  const picked = await pickup(init);
  if (picked.access_token === undefined) throw new Error(`no access token: ${JSON.stringify(picked)}`);
  return { init, pickup: picked, accessToken: picked.access_token };
}

/** An access token `who` makes on the settings page, for one project or `all`. */
export async function settingsToken(who: Person, scope: string): Promise<{ id: string; token: string }> {
  const response = await createTokenForm(who.session, { name: `Token for ${scope}`, scope, lifetime: "30" });
  if (response.status !== 201) throw new Error(`making a token answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as { id: string; token: string };
}

/** Makes `userIds` members of the team with `role`, directly: a cheap fixture for the races, whose subject is not the joining. */
export async function addMembersDirectly(teamId: string, userIds: string[], role: TeamRoleName): Promise<void> {
  const prisma = await db();
  const joinedAt = new Date();
  await prisma.teamMember.createMany({ data: userIds.map((userId) => ({ teamId, userId, role, joinedAt })) });
}

/** The team's members and their roles, by account. */
export async function rolesIn(teamId: string): Promise<Record<string, string>> {
  const members = await (await db()).teamMember.findMany({ where: { teamId }, select: { userId: true, role: true } });
  return Object.fromEntries(members.map((member) => [member.userId, member.role]));
}
