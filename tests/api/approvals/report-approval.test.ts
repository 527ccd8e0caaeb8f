import { describe, expect, it } from "vitest";
import { reportApproval, reportedApproval } from "@/lib/approvals/report-approval";
import { config } from "@/lib/config";
import { db } from "@/lib/database/db";
import { readInitRow, statusAnswer } from "@/lib/init/read-init-status";
import { claimAccessToken } from "@/lib/init/token-pickup";
import { startLogin } from "@/lib/oauth/refresh-tokens";
import { dispatch, inProcess } from "../../helpers/in-process";
import { createInit } from "../../helpers/journey.mjs";
import { approve, cookieHeader, newAccount, SITE } from "../../helpers/forms";
import { databaseFingerprint } from "../../helpers/hostile";
import { approvedClient, createLink, getProject, linked, randomIv, withToken } from "../../helpers/links";
import { deviceAuthorized, exchange, introspect, loggedIn, ownerToken, refresh, tokensOf } from "../../helpers/oauth";

// "This wasn't me": lib/approvals/report-approval.ts. The approving account
// reports an approval, and everything that came from it is revoked in one transaction.

const reportForm = (session: string, initId: string, from = "activity") =>
  dispatch("POST", `/activity/approvals/${encodeURIComponent(initId)}/report`, {
    body: new URLSearchParams({ from }).toString(),
    headers: { origin: SITE, "content-type": "application/x-www-form-urlencoded", "user-agent": "Mozilla/5.0 Firefox/133.0", ...cookieHeader(session) },
  });

/** Where a form's 303 leads, on this site. */
const location = (response: Response) => {
  expect(response.status).toBe(303);
  return (response.headers.get("location") ?? "").replace(SITE, "");
};

const expectNotFound = (response: Response) => expect(location(response)).toBe("/activity?error=not_found");

/** A client logged in with the device flow, refreshed once, with a link made by each of its access tokens. */
async function loginWithLinks() {
  const login = await loggedIn("Reported");
  const refreshed = await tokensOf(await refresh(login.tokens.refresh_token));
  const first = await linked(login.tokens.project_id, login.tokens.access_token);
  const second = await linked(login.tokens.project_id, refreshed.access_token);
  const credential = await ownerToken(login.userId, login.tokens.project_id);
  return { ...login, refreshed, links: [first, second], credential };
}

/** A device authorization a new person approved, and its approval as the exchange reads it (lib/oauth/device-code-grant.ts) before it claims the token. */
async function approvedDeviceAsRead(name: string) {
  const device = await deviceAuthorized();
  const person = await newAccount();
  await approve(device.initId, person.token, { project: "new", name, user_code: device.user_code });
  const prisma = await db();
  const init = await prisma.init.findUniqueOrThrow({ where: { id: device.initId }, select: { projectId: true, approvedById: true } });
  const approval = { initId: device.initId, sender: "@acme/cli", senderDevice: null, projectId: init.projectId!, approvedById: init.approvedById!, accessLifetimeSeconds: null, dpopJkt: null };
  return { device, approval };
}

describe("POST /activity/approvals/{id}/report", () => {
  it("revokes the approval's access tokens, its OAuth login and its links at once, records it, and says what it revoked", async () => {
    const { device, tokens, refreshed, links, credential, person, userId } = await loginWithLinks();
    const answer = await reportForm(person.token, device.initId, "project");
    expect(location(answer)).toBe(`/projects/${tokens.project_id}?reported=${device.initId}`);
    // RFC 6749 §6: the login is over; a refresh is invalid_grant.
    const refused = await refresh(refreshed.refresh_token);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: "invalid_grant" });
    // Both access tokens are refused by Create Project Link.
    for (const accessToken of [tokens.access_token, refreshed.access_token]) expect((await createLink(tokens.project_id, randomIv(), withToken(accessToken))).status).toBe(401);
    // The links' bearers are refused by the project read and introspect inactive (RFC 7662 §2.2).
    for (const link of links) {
      expect((await getProject(tokens.project_id, withToken(link.jwt))).status).toBe(401);
      expect(await introspect(link.jwt, credential)).toEqual({ active: false });
    }
    expect(await introspect(refreshed.access_token, credential)).toEqual({ active: false });
    expect(await introspect(refreshed.refresh_token, credential)).toEqual({ active: false });
    // The owner's own token, not of this approval, still works.
    expect(await introspect(credential, credential)).toMatchObject({ active: true });
    const prisma = await db();
    const events = await prisma.activityEvent.findMany({ where: { userId, kind: "approval_reported" } });
    expect(events).toEqual([
      expect.objectContaining({ subjectId: device.initId, projectId: tokens.project_id, projectName: "Reported", sender: "@acme/cli", observedUserAgent: "Mozilla/5.0 Firefox/133.0", decidedBy: person.email }),
    ]);
    expect(await reportedApproval(userId, device.initId)).toEqual({
      initId: device.initId,
      reportedAt: events[0].occurredAt,
      projectId: tokens.project_id,
      projectName: "Reported",
      accessTokens: ["@acme/cli", "@acme/cli"],
      links: links.map((link) => ({ iv: link.iv, tokenName: "@acme/cli" })),
      logins: 1,
    });
  });

  it("revokes the access token a client collected with the init's secret (Get Init Status), and its links", async () => {
    const client = await approvedClient("Collected");
    const link = await linked(client.projectId, client.accessToken);
    const prisma = await db();
    const init = await prisma.init.findFirstOrThrow({ where: { approvedById: client.userId }, select: { id: true } });
    expect(location(await reportForm(client.session, init.id))).toBe(`/activity?reported=${init.id}`);
    expect((await createLink(client.projectId, randomIv(), withToken(client.accessToken))).status).toBe(401);
    expect((await getProject(client.projectId, withToken(link.jwt))).status).toBe(401);
    expect(await reportedApproval(client.userId, init.id)).toMatchObject({ accessTokens: ["@acme/cli on laptop"], links: [{ iv: link.iv, tokenName: "@acme/cli on laptop" }], logins: 0 });
  });

  it("is harmless a second time: revokes nothing more, records nothing more", async () => {
    const { device, person, userId } = await loginWithLinks();
    expect(location(await reportForm(person.token, device.initId))).toBe(`/activity?reported=${device.initId}`);
    const first = await reportedApproval(userId, device.initId);
    const before = await databaseFingerprint();
    const again = await reportForm(person.token, device.initId);
    expect(location(again)).toBe(`/activity?reported=${device.initId}`);
    expect(await databaseFingerprint()).toEqual(before);
    expect(await reportedApproval(userId, device.initId)).toEqual(first);
  });

  it("stops a client that has not collected yet: its exchange is access_denied", async () => {
    const device = await deviceAuthorized();
    const person = await newAccount();
    await approve(device.initId, person.token, { project: "new", name: "Undone", user_code: device.user_code });
    expect(location(await reportForm(person.token, device.initId, "init"))).toBe(`/init/${device.initId}`);
    const exchanged = await exchange(device.device_code);
    expect(exchanged.status).toBe(400);
    expect(await exchanged.json()).toMatchObject({ error: "access_denied" });
    const prisma = await db();
    expect(await prisma.accessToken.count({ where: { user: { email: person.email } } })).toBe(0);
  });

  // The device-code exchange claims the access token, then starts the login: a report between the two revokes both.
  it("revokes a login its exchange starts after a report that came between its token and its login, and the exchange is access_denied", async () => {
    const { device, approval } = await approvedDeviceAsRead("Between");
    const prisma = await db();
    const expiresAt = new Date(Date.now() + 86_400_000);
    const issued = await claimAccessToken(approval, { address: "127.0.0.1", userAgent: "acme-cli/1.0" }, expiresAt);
    if (typeof issued === "string") throw new Error(`the token was not claimed: ${issued}`);
    await reportApproval(config(), approval.approvedById, device.initId, { address: "127.0.0.1", userAgent: "Firefox" });
    const login = { clientId: "@acme/cli", initId: device.initId, userId: approval.approvedById, projectId: approval.projectId, accessTokenId: issued.id, startedAt: Date.now(), expiresAt, dpopJkt: null };
    await expect(startLogin(config(), login)).rejects.toMatchObject({ code: "access_denied" });
    expect(await prisma.oAuthLogin.findMany({ where: { initId: device.initId }, select: { revokedReason: true } })).toEqual([{ revokedReason: "report" }]);
    expect(await prisma.accessToken.findUniqueOrThrow({ where: { id: issued.id }, select: { revokedAt: true } })).toEqual({ revokedAt: expect.any(Date) });
  });

  it("refuses another account's approval, an init not approved and an unknown id with not_found, writing nothing", async () => {
    const { device } = await loginWithLinks();
    const stranger = await newAccount();
    const pending = await deviceAuthorized();
    const before = await databaseFingerprint();
    await expectNotFound(await reportForm(stranger.token, device.initId));
    await expectNotFound(await reportForm(stranger.token, pending.initId));
    await expectNotFound(await reportForm(stranger.token, "AudKZwucI6wsqZhncOHqAl"));
    await expectNotFound(await reportForm(stranger.token, "x".repeat(300)));
    expect(await databaseFingerprint()).toEqual(before);
  });

  // A client collecting its token while the person reports: whichever comes first, the client ends
  // with no working token and the report names what it revoked. (A collection landing between the
  // report's read of the init and its update, which makes the report run again, is a narrower
  // window than these races hit reliably.)
  // The pickup read the init as done, and the report committed before it claimed the token.
  it("answers a pickup that read the init before the report as a denied poll, and issues it no token", async () => {
    const person = await newAccount();
    const init = await createInit(inProcess);
    expect(location(await approve(init.id, person.token, { project: "new", name: "Stale", code_confirmed: "yes" }))).toBe(`/init/${init.id}`);
    const stale = await readInitRow(init.id);
    expect(location(await reportForm(person.token, init.id))).toBe(`/activity?reported=${init.id}`);
    const holder = { secret: init.secret, dpopJkt: async () => null };
    const answer = await statusAnswer(config(), stale!, "done", Date.now(), holder, () => ({ address: "127.0.0.1", userAgent: "acme-cli/1.0" }));
    const poll = await (await dispatch("GET", `/api/init/${init.id}`, { headers: { authorization: `Bearer ${init.secret}` } })).json();
    expect(poll).toMatchObject({ status: "denied" });
    expect(answer).toEqual({ ...poll, timestamp: answer.timestamp });
    const prisma = await db();
    expect(await prisma.accessToken.count({ where: { user: { email: person.email } } })).toBe(0);
  });

  it("tells a claim that read the approval before the report that the init is denied", async () => {
    const { device, approval } = await approvedDeviceAsRead("Claimed late");
    const prisma = await db();
    await reportApproval(config(), approval.approvedById, device.initId, { address: "127.0.0.1", userAgent: "Firefox" });
    expect(await claimAccessToken(approval, { address: "127.0.0.1", userAgent: "acme-cli/1.0" }, new Date(Date.now() + 86_400_000))).toBe("denied");
    expect(await prisma.accessToken.count({ where: { userId: approval.approvedById } })).toBe(0);
  });

  it("leaves the client no working token whichever of a report and its collection comes first (20 races)", async () => {
    const person = await newAccount();
    const prisma = await db();
    const { id: userId } = await prisma.user.findUniqueOrThrow({ where: { email: person.email }, select: { id: true } });
    let projectId = "new";
    for (let round = 0; round < 20; round++) {
      const init = await createInit(inProcess);
      const fields: Record<string, string> = projectId === "new" ? { project: "new", name: "Raced", code_confirmed: "yes" } : { project: projectId, code_confirmed: "yes" };
      expect(location(await approve(init.id, person.token, fields))).toBe(`/init/${init.id}`);
      projectId = (await prisma.init.findUniqueOrThrow({ where: { id: init.id }, select: { projectId: true } })).projectId!;
      const [reported, collected] = await Promise.all([
        reportForm(person.token, init.id),
        dispatch("GET", `/api/init/${init.id}`, { headers: { authorization: `Bearer ${init.secret}` } }),
      ]);
      expect(location(reported)).toBe(`/activity?reported=${init.id}`);
      expect(collected.status).toBe(200);
      const status = await collected.json();
      const revoked = await reportedApproval(userId, init.id);
      if (typeof status.access_token === "string") {
        expect((await createLink(projectId, randomIv(), withToken(status.access_token))).status).toBe(401);
        expect(revoked?.accessTokens).toEqual(["@acme/cli"]);
      } else {
        // Denied as a poll of a denied init is: no project, no token.
        expect(status).toMatchObject({ status: "denied", error: expect.any(String) });
        expect(status).not.toHaveProperty("project");
        expect(status).not.toHaveProperty("project_id");
        expect(revoked?.accessTokens).toEqual([]);
      }
    }
    expect(await prisma.accessToken.count({ where: { userId, revokedAt: null } })).toBe(0);
  });

  it("leaves a device-flow client no working token whichever of a report and its exchange comes first: access_denied, never invalid_grant (20 races)", async () => {
    const person = await newAccount();
    const prisma = await db();
    const { id: userId } = await prisma.user.findUniqueOrThrow({ where: { email: person.email }, select: { id: true } });
    let projectId = "new";
    for (let round = 0; round < 20; round++) {
      const device = await deviceAuthorized();
      const fields: Record<string, string> = projectId === "new" ? { project: "new", name: "Raced device", user_code: device.user_code } : { project: projectId, user_code: device.user_code };
      expect(location(await approve(device.initId, person.token, fields))).toBe(`/init/${device.initId}`);
      projectId = (await prisma.init.findUniqueOrThrow({ where: { id: device.initId }, select: { projectId: true } })).projectId!;
      const [reported, exchanged] = await Promise.all([reportForm(person.token, device.initId), exchange(device.device_code)]);
      expect(location(reported)).toBe(`/activity?reported=${device.initId}`);
      if (exchanged.status === 200) {
        const tokens = await exchanged.json();
        expect((await createLink(projectId, randomIv(), withToken(tokens.access_token))).status).toBe(401);
        expect((await refresh(tokens.refresh_token)).status).toBe(400);
      } else {
        expect(exchanged.status).toBe(400);
        expect(await exchanged.json()).toMatchObject({ error: "access_denied" });
      }
    }
    expect(await prisma.accessToken.count({ where: { userId, revokedAt: null } })).toBe(0);
  });

  it("records one event of 50 concurrent reports, and revokes everything once", async () => {
    const { device, person, userId } = await loginWithLinks();
    const answers = await Promise.all(Array.from({ length: 50 }, () => reportForm(person.token, device.initId)));
    // Each is the report's answer, or, on a machine so loaded that a transaction waited past its
    // bound for a connection, the busy database's (which wrote nothing): never anything else.
    const locations = answers.map(location);
    for (const answered of locations) expect([`/activity?reported=${device.initId}`, "/activity?error=unavailable"]).toContain(answered);
    expect(locations).toContain(`/activity?reported=${device.initId}`);
    const prisma = await db();
    expect(await prisma.activityEvent.count({ where: { userId, kind: "approval_reported" } })).toBe(1);
    const reported = await reportedApproval(userId, device.initId);
    expect(reported?.accessTokens).toHaveLength(2);
    expect(await prisma.accessToken.count({ where: { userId, revokedAt: null, name: "@acme/cli" } })).toBe(0);
    expect(await prisma.projectLink.count({ where: { accessToken: { userId }, revokedAt: null } })).toBe(0);
  });
});
