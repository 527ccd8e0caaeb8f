import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "@/lib/config";
import { db } from "@/lib/database/db";
import { ApiError } from "@/lib/errors";
import { ENDPOINTS_PER_OWNER, listEndpoints, viewEndpoint } from "@/lib/events/endpoints";
import { newEndpointSecret, sealEndpointSecret } from "@/lib/events/signing";
import { randomId } from "@/lib/secrets";
import { changedTables, databaseFingerprint } from "../../helpers/hostile";
import { changeRoleForm, formErrorOf, person, removeMemberForm, settingsToken, teamOfThree, type Person } from "../../helpers/teams";
import {
  createEndpointForm,
  deleteEndpointForm,
  deliverAll,
  disableEndpointForm,
  enableEndpointForm,
  endpointFor,
  messagesOf,
  resendForm,
  rotateSecretForm,
  startReceiver,
  testEventForm,
  type Receiver,
} from "../../helpers/webhooks";

// Who may manage an endpoint (lib/events/endpoints.ts): a person their own; a team's owners and
// admins the team's. Anyone else meets an endpoint that does not exist (not_found), a plain
// member of the team is told their role does not allow adding one, and every refusal writes
// nothing: every table, the webhook tables with them, is as it was.

let hooks: Receiver;
beforeAll(async () => {
  Object.assign(process.env, { OUTBOUND_ALLOW_PRIVATE: "true", WEBHOOK_RETRY_SCHEDULE: "5s,5s,5s" });
  hooks = await startReceiver();
});
afterAll(async () => {
  await hooks.close();
});

/** The page's error code a refused button post leads back with. */
const buttonError = async (response: Response) => formErrorOf(response);

/** The JSON error of the new-endpoint and rotate forms. */
async function jsonError(response: Response): Promise<{ status: number; code: unknown; error: unknown }> {
  const body = (await response.json()) as { code?: unknown; error?: unknown };
  return { status: response.status, code: body.code, error: typeof body.error };
}

/** Every way to manage endpoint `id` (and its message `messageId`), as `who`: each answer's error code. */
async function everyAction(who: Person, id: string, messageId: string) {
  return {
    view: await viewEndpoint(who.userId, id).then(
      () => null,
      (error: unknown) => (error instanceof ApiError ? error.code : String(error)),
    ),
    listed: (await listEndpoints(who.userId)).some((endpoint) => endpoint.id === id),
    disable: await buttonError(await disableEndpointForm(who.session, id)),
    enable: await buttonError(await enableEndpointForm(who.session, id)),
    test: await buttonError(await testEventForm(who.session, id)),
    resend: await buttonError(await resendForm(who.session, id, messageId)),
    delete: await buttonError(await deleteEndpointForm(who.session, id)),
    rotate: (await jsonError(await rotateSecretForm(who.session, id))).code,
  };
}

const REFUSED = { view: "not_found", listed: false, disable: "not_found", enable: "not_found", test: "not_found", resend: "not_found", delete: "not_found", rotate: "not_found" };

/** An endpoint with a delivered message, to resend. */
async function endpointWithMessage(maker: Person, team?: string) {
  const endpoint = await endpointFor(maker, hooks, ["access_token.created"], team);
  if (team === undefined) await settingsToken(maker, "all");
  else await (await db()).webhookMessage.create({ data: { id: `msg_${endpoint.id}x`, endpointId: endpoint.id, kind: "test", occurredAt: new Date(), data: "{}", createdAt: new Date(), nextAttemptAt: new Date() } });
  await deliverAll();
  const [message] = await messagesOf(endpoint.id);
  expect(message.outcome).toBe("delivered");
  return { ...endpoint, messageId: message.id };
}

/** `count` endpoints of `userId` (or their team's) written directly, as the form would have made them. */
async function storedEndpoints(userId: string, teamId: string | null, count: number): Promise<void> {
  const prisma = await db();
  for (let index = 0; index < count; index++) {
    const id = randomId();
    await prisma.webhookEndpoint.create({
      data: { id, userId, teamId, url: `${hooks.url}/${index}`, description: "", sealedSecret: sealEndpointSecret(config().masterKey, id, newEndpointSecret()), createdAt: new Date(Date.now() - 60_000 + index) },
    });
  }
}

/** Runs `refused` and checks that it changed nothing at all. */
async function writesNothing<T>(refused: () => Promise<T>): Promise<T> {
  const before = await databaseFingerprint();
  const result = await refused();
  expect(changedTables(before, await databaseFingerprint())).toEqual([]);
  return result;
}

describe("who may manage an endpoint", () => {
  it("refuses a team's plain member: adding one is team_role_required, every action on the team's is not_found", async () => {
    const { teamId, admin, member } = await teamOfThree();
    const endpoint = await endpointWithMessage(admin, teamId);
    const added = await writesNothing(async () => jsonError(await createEndpointForm(member.session, { url: hooks.url, types: "member.added", team: teamId })));
    expect(added).toEqual({ status: 403, code: "team_role_required", error: "string" });
    expect(await writesNothing(() => everyAction(member, endpoint.id, endpoint.messageId))).toEqual(REFUSED);
    // The member's own endpoint is theirs to manage; the fingerprint sees what adding it writes.
    const before = await databaseFingerprint();
    expect((await createEndpointForm(member.session, { url: hooks.url, types: "init.approved" })).status).toBe(201);
    expect(changedTables(before, await databaseFingerprint()).sort()).toEqual(["ActivityEvent", "WebhookEndpoint", "WebhookSubscription"]);
  });

  it("lets a team's owner and admins manage its endpoints, whoever made them", async () => {
    const { teamId, owner, admin } = await teamOfThree();
    const endpoint = await endpointWithMessage(admin, teamId);
    expect(await listEndpoints(owner.userId)).toEqual([expect.objectContaining({ id: endpoint.id, team: { id: teamId, name: "Platform" }, types: ["access_token.created"] })]);
    expect((await viewEndpoint(owner.userId, endpoint.id)).attempts).toHaveLength(1);
    expect(await buttonError(await disableEndpointForm(owner.session, endpoint.id))).toBeNull();
    expect(await buttonError(await enableEndpointForm(admin.session, endpoint.id))).toBeNull();
    expect((await rotateSecretForm(owner.session, endpoint.id)).status).toBe(200);
    expect(await buttonError(await resendForm(owner.session, endpoint.id, endpoint.messageId))).toBeNull();
    expect(await buttonError(await deleteEndpointForm(owner.session, endpoint.id))).toBeNull();
    expect(await (await db()).webhookEndpoint.count({ where: { id: endpoint.id } })).toBe(0);
  });

  it("refuses another account everything, for a person's endpoint and a team's, and a team it is not in is not_found", async () => {
    const { teamId, owner } = await teamOfThree();
    const stranger = await person();
    const personal = await endpointWithMessage(owner);
    const ofTeam = await endpointWithMessage(owner, teamId);
    expect(await writesNothing(() => everyAction(stranger, personal.id, personal.messageId))).toEqual(REFUSED);
    expect(await writesNothing(() => everyAction(stranger, ofTeam.id, ofTeam.messageId))).toEqual(REFUSED);
    // Another endpoint's message is not found through one's own endpoint either.
    const own = await endpointWithMessage(stranger);
    expect(await writesNothing(async () => buttonError(await resendForm(stranger.session, own.id, personal.messageId)))).toBe("not_found");
    const added = await writesNothing(async () => jsonError(await createEndpointForm(stranger.session, { url: hooks.url, types: "member.added", team: teamId })));
    expect(added).toEqual({ status: 404, code: "not_found", error: "string" });
  });

  it("takes the team's endpoints away from an admin who is demoted, and from one who is removed", async () => {
    const { teamId, owner, admin, member } = await teamOfThree();
    const endpoint = await endpointWithMessage(admin, teamId);
    expect(formErrorOf(await changeRoleForm(owner.session, teamId, admin.userId, "member"))).toBeNull();
    expect(await writesNothing(() => everyAction(admin, endpoint.id, endpoint.messageId))).toEqual(REFUSED);
    const refused = await writesNothing(async () => jsonError(await createEndpointForm(admin.session, { url: hooks.url, types: "init.approved", team: teamId })));
    expect(refused.code).toBe("team_role_required");

    // Made admin, then removed: nothing of the team's is theirs.
    expect(formErrorOf(await changeRoleForm(owner.session, teamId, member.userId, "admin"))).toBeNull();
    expect((await listEndpoints(member.userId)).map((listed) => listed.id)).toEqual([endpoint.id]);
    expect(formErrorOf(await removeMemberForm(owner.session, teamId, member.userId))).toBeNull();
    expect(await writesNothing(() => everyAction(member, endpoint.id, endpoint.messageId))).toEqual(REFUSED);
    // The endpoint stays the team's, whoever made it.
    expect(await listEndpoints(owner.userId)).toEqual([expect.objectContaining({ id: endpoint.id })]);
  });

  it(`answers webhook_endpoint_limit past ${ENDPOINTS_PER_OWNER} endpoints of one account or one team, each counted apart`, async () => {
    const { teamId, owner } = await teamOfThree();
    // All but the last made directly: the form's count is what is checked, not each making.
    await storedEndpoints(owner.userId, null, ENDPOINTS_PER_OWNER - 1);
    await storedEndpoints(owner.userId, teamId, ENDPOINTS_PER_OWNER - 1);
    expect((await createEndpointForm(owner.session, { url: hooks.url, types: "init.approved" })).status).toBe(201);
    const personal = await writesNothing(async () => jsonError(await createEndpointForm(owner.session, { url: hooks.url, types: "init.approved" })));
    expect(personal).toEqual({ status: 409, code: "webhook_endpoint_limit", error: "string" });
    // The team's count is its own: room for one more there.
    expect((await createEndpointForm(owner.session, { url: hooks.url, types: "member.added", team: teamId })).status).toBe(201);
    const ofTeam = await writesNothing(async () => jsonError(await createEndpointForm(owner.session, { url: hooks.url, types: "member.added", team: teamId })));
    expect(ofTeam).toEqual({ status: 409, code: "webhook_endpoint_limit", error: "string" });
    // One deleted makes room for one.
    const prisma = await db();
    const [oldest] = await prisma.webhookEndpoint.findMany({ where: { teamId }, orderBy: { createdAt: "asc" }, take: 1 });
    expect(await buttonError(await deleteEndpointForm(owner.session, oldest.id))).toBeNull();
    expect((await createEndpointForm(owner.session, { url: hooks.url, types: "member.added", team: teamId })).status).toBe(201);
    expect(await prisma.webhookEndpoint.count({ where: { userId: owner.userId, teamId: null } })).toBe(ENDPOINTS_PER_OWNER);
    expect(await prisma.webhookEndpoint.count({ where: { teamId } })).toBe(ENDPOINTS_PER_OWNER);
  });

  it(`lets 50 endpoints made at once past no limit: ${ENDPOINTS_PER_OWNER} of one account, ${ENDPOINTS_PER_OWNER} of one team`, async () => {
    const { teamId, owner } = await teamOfThree();
    for (const team of [undefined, teamId]) {
      const fields: Record<string, string> = team === undefined ? { url: hooks.url, types: "init.approved" } : { url: hooks.url, types: "member.added", team };
      const answers = await Promise.all(Array.from({ length: 50 }, () => createEndpointForm(owner.session, fields)));
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 201)).toHaveLength(ENDPOINTS_PER_OWNER);
      expect(statuses.filter((status) => status !== 201).every((status) => status === 409)).toBe(true);
    }
    const prisma = await db();
    expect(await prisma.webhookEndpoint.count({ where: { userId: owner.userId, teamId: null } })).toBe(ENDPOINTS_PER_OWNER);
    expect(await prisma.webhookEndpoint.count({ where: { teamId } })).toBe(ENDPOINTS_PER_OWNER);
  });

  it("refuses team event types for a person's own endpoint (invalid_request), and unknown types", async () => {
    const owner = await person();
    for (const types of ["member.added", "init.approved member.removed", "member.role_changed"]) {
      const refused = await writesNothing(async () => createEndpointForm(owner.session, { url: hooks.url, types }));
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ code: "invalid_request", fields: [{ field: "types" }] });
    }
    for (const types of ["", "init.approve", "webhook.test", "INIT.APPROVED"]) {
      const refused = await writesNothing(async () => jsonError(await createEndpointForm(owner.session, { url: hooks.url, types })));
      expect(refused).toEqual({ status: 400, code: "invalid_request", error: "string" });
    }
    expect(await (await db()).webhookEndpoint.count({ where: { userId: owner.userId } })).toBe(0);
  });

  it("refuses a request denied or expired for a team's endpoint (invalid_request): it belongs to no project, so to no team", async () => {
    const { teamId, owner } = await teamOfThree();
    for (const types of ["init.denied", "init.approved init.expired"]) {
      const refused = await writesNothing(async () => createEndpointForm(owner.session, { url: hooks.url, types, team: teamId }));
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ code: "invalid_request", fields: [{ field: "types" }] });
    }
    expect(await (await db()).webhookEndpoint.count({ where: { teamId } })).toBe(0);
  });
});
