import { describe, expect, it, vi } from "vitest";
import { config } from "@/lib/config";
import { db } from "@/lib/database/db";
import { findInitView } from "@/lib/init/init-view";
import { sweep } from "@/lib/maintenance/sweep";
import { resolveProjectId } from "@/lib/projects/resolve-project";
import { createdInit, createInit } from "../../helpers/api";
import { approve, deny, newAccount, SITE } from "../../helpers/forms";
import { dispatch } from "../../helpers/in-process";
import { approvedClient, createLink, getProject, linked, linkSnapshot, randomIv, withToken } from "../../helpers/links";

// Compatibility, LEGACY_LINK_APPROVAL off (the default): what a client written to the original
// platform's protocol sends, on the wire. Its init reports sender_ip "Unknown" and keeps no
// secret; it keeps the init's id as the project's, also when the person approved into a project
// they already had; it sends the bearer it was given after its own "Bearer ".
// The browser-approved link with the switch on: tests/api/compat/link-approval.test.ts.

const LEGACY_CLIENT = { "user-agent": "envsync-cli/1.4.2" };

/** Create Init as such a client sends it: a JSON string as text/plain, sender_ip "Unknown". */
async function legacyInit() {
  const body = JSON.stringify({ sender: "envsync", sender_device: "build-box", sender_os: "linux", sender_ip: "Unknown" });
  const response = await createInit(body, { "content-type": "text/plain;charset=UTF-8", ...LEGACY_CLIENT });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; url: string; redirect_url: string; interval: number };
}

/** The person approves an init into one of their projects. */
async function approveInto(initId: string, session: string, projectId: string) {
  const response = await approve(initId, session, { project: projectId, code_confirmed: "yes" });
  expect(response.headers.get("location")).toBe(`${SITE}/init/${initId}`);
}

const pollWithoutAuthorization = async (url: string) => {
  const response = await dispatch("GET", new URL(url).pathname, { headers: LEGACY_CLIENT });
  expect(response.status).toBe(200);
  return response.json();
};

describe("an existing client's init", () => {
  // A reported address that is not an address is kept as reported text and never compared.
  it("is created with sender_ip Unknown and sender_os, shown as reported and never flagged as a mismatch", async () => {
    const init = await legacyInit();
    // A pending init's details, as any signed-in account sees them.
    const view = await findInitView(init.id, "a-signed-in-account");
    expect(view?.details).toEqual({ senderIp: "Unknown", addressMismatch: false, senderOs: "linux", senderDevice: "build-box", observedIp: "127.0.0.1" });
  });

  it("still refuses a reported address with control characters, over 45 characters, or not a string", async () => {
    for (const sender_ip of ["Unk\u0000nown", "x".repeat(46), 127001, "\u202eUnknown"]) {
      const response = await createInit(JSON.stringify({ sender: "envsync", sender_ip }), { "content-type": "text/plain;charset=UTF-8" });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: "invalid_request", fields: [expect.objectContaining({ field: "sender_ip" })] });
    }
  });

  it("is polled without Authorization until done, then names the existing project it was approved into", async () => {
    const owner = await approvedClient("Payments");
    const init = await legacyInit();
    expect((await pollWithoutAuthorization(init.url)).status).toBe("pending");
    await approveInto(init.id, owner.session, owner.projectId);
    // The client waits at least `interval` (doubling it) before it asks again.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 2 * init.interval });
    const done = await pollWithoutAuthorization(init.url).finally(() => vi.useRealTimers());
    expect(done).toMatchObject({ status: "done", project_id: owner.projectId, project_url: `${SITE}/projects/${owner.projectId}` });
    // No secret presented: no token, no project details.
    expect(done).not.toHaveProperty("access_token");
  });
});

// Such a client stops polling only on an `error` in the status answer; without
// one it polls a denied or expired init until its own timeout (315 s) and says "TIMEOUT".
describe("an existing client's denied or expired init", () => {
  it("answers its status with a human error, to the client without a secret and to the secret's holder", async () => {
    const owner = await approvedClient("Payments");
    const denied = await legacyInit();
    expect((await deny(denied.id, owner.session)).status).toBe(303);
    expect(await pollWithoutAuthorization(denied.url)).toEqual({
      id: denied.id,
      status: "denied",
      timestamp: expect.any(Number),
      interval: denied.interval,
      expires_at: expect.any(Number),
      error: "This request has been denied.",
    });
    const expired = await legacyInit();
    const held = await createdInit();
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + config().initLifetimeMs + 1000 });
    try {
      expect(await pollWithoutAuthorization(expired.url)).toEqual({
        id: expired.id,
        status: "expired",
        timestamp: expect.any(Number),
        interval: expired.interval,
        expires_at: expect.any(Number),
        error: "This request has expired. Start again in your terminal.",
      });
      const withSecret = await dispatch("GET", `/api/init/${held.id}`, { headers: { authorization: `Bearer ${held.secret}` } });
      expect(await withSecret.json()).toMatchObject({ status: "expired", error: "This request has expired. Start again in your terminal." });
    } finally {
      vi.useRealTimers();
    }
  });

  it("answers a pending or done init without one", async () => {
    const owner = await approvedClient("Payments");
    const init = await legacyInit();
    expect(await pollWithoutAuthorization(init.url)).not.toHaveProperty("error");
    await approveInto(init.id, owner.session, owner.projectId);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 2 * init.interval });
    const done = await pollWithoutAuthorization(init.url).finally(() => vi.useRealTimers());
    expect(done.status).toBe("done");
    expect(done).not.toHaveProperty("error");
  });
});

describe("a project named by the id of an init approved into it", () => {
  it("links and reads the project with the same access checks as its own id", async () => {
    const owner = await approvedClient("Payments");
    const init = await legacyInit();
    await approveInto(init.id, owner.session, owner.projectId);

    // Create Project Link at /api/projects/{init id}/link/{iv}: the project's link.
    const iv = randomIv();
    const response = await createLink(init.id, iv, withToken(owner.accessToken));
    expect(response.status).toBe(200);
    const link = await response.json();
    const prisma = await db();
    expect(await prisma.projectLink.findUniqueOrThrow({ where: { id: link.link_id } })).toMatchObject({ projectId: owner.projectId, iv });
    // The same (project, iv) by its own id is the same link: a retry.
    expect((await (await createLink(owner.projectId, iv, withToken(owner.accessToken))).json()).link_id).toBe(link.link_id);

    // The bearer endpoint by either id, with the bearer as issued.
    for (const id of [init.id, owner.projectId]) {
      const read = await getProject(id, { authorization: link.bearer });
      expect(read.status).toBe(200);
      expect(await read.json()).toMatchObject({ id: owner.projectId, link: { id: link.link_id } });
    }

    // Someone else's token reaches it by neither id; nothing is written.
    const stranger = await approvedClient("Other");
    const before = await linkSnapshot();
    for (const id of [init.id, owner.projectId]) {
      const refused = await createLink(id, randomIv(), withToken(stranger.accessToken));
      expect(refused.status).toBe(404);
      expect(await refused.json()).toMatchObject({ success: false, code: "not_found" });
    }
    // A bearer of another project does not open this one by the init's id.
    const strangersLink = await linked(stranger.projectId, stranger.accessToken);
    expect((await getProject(init.id, { authorization: strangersLink.bearer })).status).toBe(401);
    expect((await linkSnapshot()).links.length).toBe(before.links.length + 1);
  });

  it("names no project while the init is pending, or when it was denied", async () => {
    const owner = await approvedClient("Payments");
    const pending = await legacyInit();
    const denied = await legacyInit();
    expect((await deny(denied.id, owner.session)).status).toBe(303);
    const before = await linkSnapshot();
    for (const init of [pending, denied]) {
      const response = await createLink(init.id, randomIv(), withToken(owner.accessToken));
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ success: false, code: "not_found" });
    }
    expect(await linkSnapshot()).toEqual(before);
  });

  // The client keeps the id for good: the sweep keeps it when it deletes the init.
  it("still names the project after the sweep has deleted the init", async () => {
    const owner = await approvedClient("Payments");
    const init = await legacyInit();
    await approveInto(init.id, owner.session, owner.projectId);
    const prisma = await db();
    const longAgo = new Date(Date.now() - config().initRetentionMs - 1000);
    await prisma.init.update({ where: { id: init.id }, data: { expiresAt: longAgo } });
    // The init that made the project (its id is the project's) needs no alias.
    await prisma.init.update({ where: { id: owner.projectId }, data: { expiresAt: longAgo } });
    await sweep(config());
    expect(await prisma.projectAlias.count({ where: { id: owner.projectId } })).toBe(0);
    expect(await prisma.init.findUnique({ where: { id: init.id } })).toBeNull();
    expect(await prisma.projectAlias.findUniqueOrThrow({ where: { id: init.id } })).toMatchObject({ projectId: owner.projectId });
    const response = await createLink(init.id, randomIv(), withToken(owner.accessToken));
    expect(response.status).toBe(200);
    const { bearer } = await response.json();
    expect((await getProject(init.id, { authorization: bearer })).status).toBe(200);
    // The pages resolve the alias as they resolve the init's id: for the owner only.
    const stranger = await approvedClient("Someone else's");
    expect(await resolveProjectId(init.id, owner.userId)).toBe(owner.projectId);
    expect(await resolveProjectId(init.id, stranger.userId)).toBeNull();
    // A second sweep keeps the alias once.
    await sweep(config());
    expect(await prisma.projectAlias.count({ where: { id: init.id } })).toBe(1);
  });
});

describe("the link bearer with a doubled prefix", () => {
  // The client sends `Bearer ${bearer}` where bearer is "Bearer <JWT>".
  it("is accepted as Bearer Bearer <JWT>, and nothing looser", async () => {
    const owner = await approvedClient("Payments");
    const link = await linked(owner.projectId, owner.accessToken);
    const read = await getProject(owner.projectId, { authorization: `Bearer ${link.bearer}` });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ id: owner.projectId });
    for (const authorization of [`Bearer Bearer Bearer ${link.jwt}`, `BearerBearer ${link.jwt}`, `Bearer Token ${link.jwt}`, `Token Bearer ${link.jwt}`, `Bearer Bearer`, `Bearer ${link.jwt} ${link.jwt}`]) {
      const refused = await getProject(owner.projectId, { authorization });
      expect(refused.status, authorization).toBe(401);
      expect((await refused.json()).code).toBe("invalid_token");
    }
  });

  it("is not accepted for an access token on Create Project Link", async () => {
    const owner = await approvedClient("Payments");
    const response = await createLink(owner.projectId, randomIv(), { authorization: `Bearer Bearer ${owner.accessToken}` });
    expect(response.status).toBe(401);
  });
});

describe("the browser-approved link with LEGACY_LINK_APPROVAL off", () => {
  it("answers a POST without Authorization 401 as before, and writes nothing", async () => {
    const owner = await approvedClient("Payments");
    const before = await linkSnapshot();
    const response = await createLink(owner.projectId, randomIv(), {});
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ success: false, code: "unauthorized" });
    expect(await linkSnapshot()).toEqual(before);
    const prisma = await db();
    expect(await prisma.linkApproval.count()).toBe(0);
  });

  it("has no approve or deny form", async () => {
    const { token } = await newAccount();
    const owner = await approvedClient("Payments");
    for (const decision of ["approve", "deny"]) {
      const response = await dispatch("POST", `/projects/${owner.projectId}/link/${randomIv()}/${decision}`, {
        body: "",
        headers: { origin: SITE, "content-type": "application/x-www-form-urlencoded", cookie: `__Host-initlink_session=${token}` },
      });
      expect(response.status).toBe(303);
      expect(response.headers.get("location")).toContain("error=not_found");
    }
    const prisma = await db();
    expect(await prisma.linkApproval.count()).toBe(0);
  });
});
