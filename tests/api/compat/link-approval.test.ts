import { describe, expect, it, vi } from "vitest";
import { config } from "@/lib/config";
import { db } from "@/lib/database/db";
import { findLinkApprovalView } from "@/lib/links/link-approval-view";
import { listProjectLinks } from "@/lib/links/manage-links";
import { sweep } from "@/lib/maintenance/sweep";
import { projectPublicKey } from "@/lib/projects/project-keys";
import { PEER_ADDRESS_HEADER } from "@/server/request-context.mjs";
import { createInit } from "../../helpers/api";
import { approve, cookieHeader, newAccount, revokeLinkForm, SITE } from "../../helpers/forms";
import { dispatch } from "../../helpers/in-process";
import { approvedClient, createLink, getProject, linkSnapshot, randomIv, withToken } from "../../helpers/links";

// The browser-approved link of existing clients, LEGACY_LINK_APPROVAL on. The client
// sends the person to /projects/{projectId}/link/{iv}?metadata=… and repeats
// POST /api/projects/{projectId}/link/{iv} with no Authorization and no body until it gets 200.
vi.hoisted(() => {
  process.env.LEGACY_LINK_APPROVAL = "on";
});

const LEGACY_CLIENT = { "user-agent": "envsync-cli/1.4.2", [PEER_ADDRESS_HEADER]: "198.51.100.7" };
const METADATA = Buffer.from(JSON.stringify({ sender_device: "build-box", sender_ip: "Unknown" })).toString("base64");

/** The client's POST: no Authorization, no body. */
const ask = (projectId: string, iv: string) => createLink(projectId, iv, LEGACY_CLIENT);

/** The person's browser, on the client's network: these clients show no code, so an approval is taken from there only. */
const NEARBY_BROWSER = "198.51.100.20";

/** The person's Approve or Deny button on the page. */
function decide(decision: "approve" | "deny", session: string, projectId: string, iv: string, browserAddress = NEARBY_BROWSER) {
  return dispatch("POST", `/projects/${projectId}/link/${iv}/${decision}?metadata=${encodeURIComponent(METADATA)}`, {
    body: "",
    headers: { origin: SITE, "content-type": "application/x-www-form-urlencoded", ...cookieHeader(session), [PEER_ADDRESS_HEADER]: browserAddress },
  });
}

async function expectNotYet(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  const body = await response.json();
  expect(body).toEqual({ success: false, error: expect.any(String), code });
}

/** Runs `steps` with the clock (Date only) `ms` ahead. */
async function later(ms: number, steps: () => Promise<void>) {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + ms });
  try {
    await steps();
  } finally {
    vi.useRealTimers();
  }
}

/** Everything a decision or a claim could change. */
async function snapshot() {
  const prisma = await db();
  return { ...(await linkSnapshot()), approvals: await prisma.linkApproval.findMany({ orderBy: { id: "asc" } }) };
}

describe("a link approved in the browser", () => {
  it("is pending until approved, then given once to the next POST for exactly that (project, iv), and bound like any other link", async () => {
    const owner = await approvedClient("Payments");
    const iv = randomIv();
    await expectNotYet(await ask(owner.projectId, iv), 202, "link_approval_pending");
    await expectNotYet(await ask(owner.projectId, iv), 202, "link_approval_pending");

    // The page shows what the client said, what the service saw, and the project with its key.
    const key = await projectPublicKey(config(), owner.projectId);
    const view = await findLinkApprovalView(config(), owner.userId, owner.projectId, iv.toUpperCase(), METADATA);
    expect(view).toMatchObject({
      project: { id: owner.projectId, name: "Payments", fingerprint: key.fingerprint },
      iv,
      reported: { senderDevice: "build-box", senderIp: "Unknown" },
      asking: true,
      observed: { address: "198.51.100.7", userAgent: "envsync-cli/1.4.2", addressMismatch: false },
      state: "waiting",
    });

    const approved = await decide("approve", owner.session, owner.projectId, iv);
    expect(approved.status).toBe(303);
    expect(approved.headers.get("location")).toBe(`${SITE}/projects/${owner.projectId}/link/${iv}?metadata=${encodeURIComponent(METADATA)}`);

    // Another iv of the same project is not approved by it.
    await expectNotYet(await ask(owner.projectId, randomIv()), 202, "link_approval_pending");

    const response = await ask(owner.projectId, iv);
    expect(response.status).toBe(200);
    const link = await response.json();
    expect(link).toMatchObject({ success: true, bearer: expect.stringMatching(/^Bearer ey/), public: expect.stringContaining("BEGIN PUBLIC KEY") });

    // Once: the next POST is refused, and the approval is gone.
    await expectNotYet(await ask(owner.projectId, iv), 409, "link_conflict");
    const prisma = await db();
    expect(await prisma.linkApproval.count({ where: { projectId: owner.projectId, iv } })).toBe(0);

    // The client uses it as it does: `Bearer ${bearer}`.
    expect((await getProject(owner.projectId, { authorization: `Bearer ${link.bearer}` })).status).toBe(200);
    // Listed on the project page, revocable.
    const listed = await listProjectLinks(owner.userId, owner.projectId);
    expect(listed.find((entry) => entry.id === link.link_id)).toMatchObject({ iv, userAgent: "envsync-cli/1.4.2", status: "active" });
    expect((await findLinkApprovalView(config(), owner.userId, owner.projectId, iv, null))?.state).toBe("linked");
    expect((await revokeLinkForm(owner.session, owner.projectId, link.link_id)).status).toBe(303);
    expect((await getProject(owner.projectId, { authorization: link.bearer })).status).toBe(401);
  });

  // A waiting client asks again every few seconds: its row is kept alive at most once a minute,
  // not written (a durable commit) on every ask.
  it("writes a waiting request once, not on every ask", async () => {
    const owner = await approvedClient("Payments");
    const iv = randomIv();
    await expectNotYet(await ask(owner.projectId, iv), 202, "link_approval_pending");
    const prisma = await db();
    const first = await prisma.linkApproval.findUniqueOrThrow({ where: { projectId_iv: { projectId: owner.projectId, iv } } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    for (let i = 0; i < 3; i++) await expectNotYet(await ask(owner.projectId, iv), 202, "link_approval_pending");
    expect(await prisma.linkApproval.findUniqueOrThrow({ where: { projectId_iv: { projectId: owner.projectId, iv } } })).toEqual(first);
  });

  it("works with the id of an init approved into an existing project", async () => {
    const owner = await approvedClient("Payments");
    const created = await createInit(JSON.stringify({ sender: "envsync", sender_ip: "Unknown" }), { "content-type": "text/plain;charset=UTF-8" });
    const init = (await created.json()) as { id: string };
    expect((await approve(init.id, owner.session, { project: owner.projectId, code_confirmed: "yes" })).status).toBe(303);

    const iv = randomIv();
    await expectNotYet(await ask(init.id, iv), 202, "link_approval_pending");
    expect((await decide("approve", owner.session, init.id, iv)).status).toBe(303);
    const response = await ask(init.id, iv);
    expect(response.status).toBe(200);
    const link = await response.json();
    const prisma = await db();
    expect(await prisma.projectLink.findUniqueOrThrow({ where: { id: link.link_id } })).toMatchObject({ projectId: owner.projectId, iv });
    const read = await getProject(init.id, { authorization: `Bearer ${link.bearer}` });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ id: owner.projectId });
  });

  it("is refused once denied, and the denial writes nothing more", async () => {
    const owner = await approvedClient("Payments");
    const iv = randomIv();
    await expectNotYet(await ask(owner.projectId, iv), 202, "link_approval_pending");
    expect((await decide("deny", owner.session, owner.projectId, iv)).status).toBe(303);
    const before = await snapshot();
    await expectNotYet(await ask(owner.projectId, iv), 403, "link_denied");
    await expectNotYet(await ask(owner.projectId, iv), 403, "link_denied");
    expect(await snapshot()).toEqual(before);
  });

  it("stops a claim when the person denies after approving", async () => {
    const owner = await approvedClient("Payments");
    const iv = randomIv();
    await expectNotYet(await ask(owner.projectId, iv), 202, "link_approval_pending");
    expect((await decide("approve", owner.session, owner.projectId, iv)).status).toBe(303);
    expect((await decide("deny", owner.session, owner.projectId, iv)).status).toBe(303);
    await expectNotYet(await ask(owner.projectId, iv), 403, "link_denied");
  });

  // While a POST makes the link (the row is "claiming"), a decision cannot change it and other
  // POSTs are told "not yet" without writing; a claim a crash left behind is void after its lifetime.
  it("keeps a claim under way from decisions and other requests", async () => {
    const owner = await approvedClient("Payments");
    const iv = randomIv();
    await expectNotYet(await ask(owner.projectId, iv), 202, "link_approval_pending");
    expect((await decide("approve", owner.session, owner.projectId, iv)).status).toBe(303);
    const prisma = await db();
    await prisma.linkApproval.updateMany({ where: { projectId: owner.projectId, iv }, data: { status: "claiming" } });
    const before = await snapshot();
    const denied = await decide("deny", owner.session, owner.projectId, iv);
    expect(new URL(denied.headers.get("location") ?? "").searchParams.get("error")).toBe("link_conflict");
    await expectNotYet(await ask(owner.projectId, iv), 202, "link_approval_pending");
    expect(await snapshot()).toEqual(before);
    expect((await findLinkApprovalView(config(), owner.userId, owner.projectId, iv, null))?.state).toBe("approved");

    await prisma.linkApproval.updateMany({ where: { projectId: owner.projectId, iv }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await decide("approve", owner.session, owner.projectId, iv)).status).toBe(303);
    expect((await ask(owner.projectId, iv)).status).toBe(200);
    expect(await prisma.linkApproval.count({ where: { projectId: owner.projectId, iv } })).toBe(0);
  });

  it("expires when not collected in time, and can be approved again", async () => {
    const owner = await approvedClient("Payments");
    const iv = randomIv();
    await expectNotYet(await ask(owner.projectId, iv), 202, "link_approval_pending");
    expect((await decide("approve", owner.session, owner.projectId, iv)).status).toBe(303);
    const prisma = await db();
    const past = new Date(Date.now() - 1000);
    await prisma.linkApproval.updateMany({ where: { projectId: owner.projectId, iv }, data: { expiresAt: past } });

    const before = await snapshot();
    await expectNotYet(await ask(owner.projectId, iv), 410, "link_approval_expired");
    expect(await snapshot()).toEqual(before);
    expect((await findLinkApprovalView(config(), owner.userId, owner.projectId, iv, null))?.state).toBe("expired");

    // The sweep removes it; the client's next POST waits afresh.
    expect((await sweep(config())).linkApprovals).toBeGreaterThanOrEqual(1);
    expect(await prisma.linkApproval.count({ where: { projectId: owner.projectId, iv } })).toBe(0);
    await expectNotYet(await ask(owner.projectId, iv), 202, "link_approval_pending");
    expect((await decide("approve", owner.session, owner.projectId, iv)).status).toBe(303);
    expect((await ask(owner.projectId, iv)).status).toBe(200);
  });

  it("cannot be approved by someone who does not reach the project", async () => {
    const owner = await approvedClient("Payments");
    const stranger = await newAccount();
    const iv = randomIv();
    await expectNotYet(await ask(owner.projectId, iv), 202, "link_approval_pending");
    const before = await snapshot();
    const refused = await decide("approve", stranger.token, owner.projectId, iv);
    expect(refused.status).toBe(303);
    expect(refused.headers.get("location")).toContain("error=not_found");
    const prisma = await db();
    const strangerId = (await prisma.user.findUniqueOrThrow({ where: { email: stranger.email } })).id;
    expect(await findLinkApprovalView(config(), strangerId, owner.projectId, iv, METADATA)).toBeNull();
    expect(await snapshot()).toEqual(before);
  });

  // One click by the owner on a crafted page once approved a link ahead of any
  // client, for whoever held the iv to collect later. A decision needs a client asking for that
  // very (project, iv): a POST within the last minute.
  it("cannot be approved or denied before a client asks, nor after it stopped asking", async () => {
    const owner = await approvedClient("Payments");
    const iv = randomIv();
    const before = await snapshot();
    for (const decision of ["approve", "deny"] as const) {
      const refused = await decide(decision, owner.session, owner.projectId, iv);
      expect(new URL(refused.headers.get("location") ?? "").searchParams.get("error"), decision).toBe("no_client_waiting");
    }
    expect(await snapshot()).toEqual(before);
    expect(await findLinkApprovalView(config(), owner.userId, owner.projectId, iv, METADATA)).toMatchObject({ asking: false, observed: null, state: "not_asked" });

    await expectNotYet(await ask(owner.projectId, iv), 202, "link_approval_pending");
    await later(61_000, async () => {
      const asked = await snapshot();
      const stale = await decide("approve", owner.session, owner.projectId, iv);
      expect(new URL(stale.headers.get("location") ?? "").searchParams.get("error")).toBe("no_client_waiting");
      expect(await snapshot()).toEqual(asked);
      expect(await findLinkApprovalView(config(), owner.userId, owner.projectId, iv, METADATA)).toMatchObject({ asking: false, observed: null, state: "not_asked" });
      // The client asks again: the person may decide, and the client collects the link.
      await expectNotYet(await ask(owner.projectId, iv), 202, "link_approval_pending");
      expect((await decide("approve", owner.session, owner.projectId, iv)).headers.get("location")).not.toContain("error");
      expect((await ask(owner.projectId, iv)).status).toBe(200);
    });
  });

  // Remote phishing: these clients show no code, so nothing shows that a browser elsewhere is the person who started it.
  it("is approved only from the asking client's network, and denied from anywhere", async () => {
    const owner = await approvedClient("Payments");
    const iv = randomIv();
    await expectNotYet(await ask(owner.projectId, iv), 202, "link_approval_pending");
    const asked = await snapshot();
    for (const elsewhere of ["203.0.113.9", "198.51.101.20", "2001:db8::20"]) {
      const refused = await decide("approve", owner.session, owner.projectId, iv, elsewhere);
      expect(new URL(refused.headers.get("location") ?? "").searchParams.get("error")).toBe("client_elsewhere");
    }
    expect(await snapshot()).toEqual(asked);
    await expectNotYet(await ask(owner.projectId, iv), 202, "link_approval_pending");
    expect((await decide("deny", owner.session, owner.projectId, iv, "203.0.113.9")).headers.get("location")).not.toContain("error");
    await expectNotYet(await ask(owner.projectId, iv), 403, "link_denied");
  });

  it("can be approved after a denial while the client still asks", async () => {
    const owner = await approvedClient("Payments");
    const iv = randomIv();
    await expectNotYet(await ask(owner.projectId, iv), 202, "link_approval_pending");
    expect((await decide("deny", owner.session, owner.projectId, iv)).headers.get("location")).not.toContain("error");
    await later(61_000, async () => {
      // A denied client that goes on asking is recorded as asking.
      await expectNotYet(await ask(owner.projectId, iv), 403, "link_denied");
      expect((await decide("approve", owner.session, owner.projectId, iv)).headers.get("location")).not.toContain("error");
      expect((await ask(owner.projectId, iv)).status).toBe(200);
    });
  });

  // The page shows the client asking now as the init page does: its address, flagged when it is not the reported one.
  it("shows the asking client's address, flagged when it differs from the reported one", async () => {
    const owner = await approvedClient("Payments");
    const iv = randomIv();
    await expectNotYet(await ask(owner.projectId, iv), 202, "link_approval_pending");
    const reported = Buffer.from(JSON.stringify({ sender_device: "build-box", sender_ip: "8.8.8.8" })).toString("base64");
    expect((await findLinkApprovalView(config(), owner.userId, owner.projectId, iv, reported))?.observed).toEqual({ address: "198.51.100.7", userAgent: "envsync-cli/1.4.2", addressMismatch: true });
  });

  // Project id enumeration: without credentials, 404 for an unknown project against 202 for a known one told which project ids exist.
  it("answers an unknown project as a known one that no one has approved, and writes nothing for it", async () => {
    const owner = await approvedClient("Payments");
    const known = await ask(owner.projectId, randomIv());
    const before = await snapshot();
    const unknown = await ask("AAAAAAAAAAAAAAAAAAAAAA", randomIv());
    expect(unknown.status).toBe(known.status);
    expect(await unknown.json()).toEqual(await known.json());
    expect(await snapshot()).toEqual(before);
  });

  it("gives the link to exactly one of 50 concurrent claims, and the losers leave no request behind", async () => {
    const owner = await approvedClient("Payments");
    const iv = randomIv();
    await expectNotYet(await ask(owner.projectId, iv), 202, "link_approval_pending");
    expect((await decide("approve", owner.session, owner.projectId, iv)).status).toBe(303);
    const answers = await Promise.all(Array.from({ length: 50 }, () => ask(owner.projectId, iv)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    const prisma = await db();
    expect(await prisma.projectLink.count({ where: { projectId: owner.projectId, iv } })).toBe(1);
    expect(await prisma.linkApproval.count({ where: { projectId: owner.projectId, iv } })).toBe(0);
    // The loser's unseen access token is gone; the winner's is the link's.
    expect(await prisma.accessToken.count({ where: { userId: owner.userId, name: { contains: "approved in the browser" } } })).toBe(1);
  });

  // Every refusal of the Approve and Deny forms: a 303 back to the page with its code, nothing written.
  it("refuses forms that are cross-site, signed out, or for a bad iv, and writes nothing", async () => {
    const owner = await approvedClient("Payments");
    const iv = randomIv();
    const post = (decision: string, path: string, headers: Record<string, string>) =>
      dispatch("POST", `/projects/${owner.projectId}/link/${path}/${decision}`, { body: "", headers: { "content-type": "application/x-www-form-urlencoded", ...headers } });
    const cases: [string, () => Promise<Response>, string][] = [
      ["from another site", () => post("approve", iv, { origin: "https://evil.example", ...cookieHeader(owner.session) }), "cross_site_request"],
      ["signed out", () => post("approve", iv, { origin: SITE }), "unauthorized"],
      ["with an iv that is not hexadecimal", () => post("approve", "zz".repeat(16), { origin: SITE, ...cookieHeader(owner.session) }), "invalid_request"],
      ["with a short iv", () => post("deny", "ab".repeat(8), { origin: SITE, ...cookieHeader(owner.session) }), "invalid_request"],
    ];
    const before = await snapshot();
    for (const [label, send, code] of cases) {
      const response = await send();
      expect(response.status, label).toBe(303);
      expect(new URL(response.headers.get("location") ?? "").searchParams.get("error"), label).toBe(code);
    }
    expect(await snapshot()).toEqual(before);
  });

  it("leaves Create Project Link with an access token as it is", async () => {
    const owner = await approvedClient("Payments");
    const iv = randomIv();
    await expectNotYet(await ask(owner.projectId, iv), 202, "link_approval_pending");
    expect((await createLink(owner.projectId, iv, withToken(owner.accessToken))).status).toBe(200);
    // That (project, iv) is taken: the browser path cannot hand it out again.
    await expectNotYet(await ask(owner.projectId, iv), 409, "link_conflict");
    expect((await createLink(owner.projectId, randomIv(), { authorization: "Bearer nope" })).status).toBe(401);
  });
});
