import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/database/db";
import { hashSecret } from "@/lib/secrets";
import { createdInit, databaseSnapshot, getInitStatus } from "../../helpers/api";
import { approve, deny, newAccount } from "../../helpers/forms";

const APPROVE_NEW = { project: "new", name: "My app", code_confirmed: "yes" };
const withSecret = (secret: string, userAgent = "acme-cli/1.0") => ({ authorization: `Bearer ${secret}`, "user-agent": userAgent });

afterEach(() => {
  vi.useRealTimers();
});

describe("approving an init", () => {
  it("creates a project that takes the init's id, and the status turns done", async () => {
    const { token } = await newAccount();
    const init = await createdInit();
    const response = await approve(init.id, token, APPROVE_NEW);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`https://initlink.test/init/${init.id}`);
    const body = await (await getInitStatus(init.id)).json();
    expect(body).toMatchObject({ status: "done", project_id: init.id, project_url: `https://initlink.test/projects/${init.id}` });
    // Without the secret nobody learns the project's name, the approver or a token.
    expect(body).not.toHaveProperty("project");
    expect(body).not.toHaveProperty("approved_by");
    expect(body).not.toHaveProperty("access_token");
    const prisma = await db();
    expect(await prisma.project.findUniqueOrThrow({ where: { id: init.id } })).toMatchObject({ name: "My app" });
  });

  it("hands the access token to the client holding the secret exactly once", async () => {
    const { token } = await newAccount();
    const init = await createdInit({ sender: "@acme/cli", sender_device: "laptop" });
    await approve(init.id, token, APPROVE_NEW);
    const first = await (await getInitStatus(init.id, withSecret(init.secret))).json();
    // The approver's email stays with the service unless their account shares it (tests/api/auth/account-settings.test.ts).
    expect(first).toMatchObject({ status: "done", project: { id: init.id, name: "My app" }, approved_by: null });
    expect(first.access_token).toMatch(/^ilat_[A-Za-z0-9_-]{43}$/);
    expect(first.access_token_expires_at).toBeGreaterThan(Date.now() + 89 * 86_400_000);
    const prisma = await db();
    const stored = await prisma.accessToken.findUniqueOrThrow({ where: { tokenHash: hashSecret(first.access_token) } });
    expect(stored).toMatchObject({ projectId: init.id, name: "@acme/cli on laptop" });
    // The client's next poll, an interval later.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + init.interval);
    const second = await (await getInitStatus(init.id, withSecret(init.secret, "acme-cli/1.0 retry"))).json();
    expect(second).toMatchObject({ status: "done", project: { id: init.id } });
    expect(second).not.toHaveProperty("access_token");
    expect(await prisma.accessToken.count({ where: { projectId: init.id } })).toBe(1);
  });

  it("refuses a wrong or malformed secret with 401 and issues nothing", async () => {
    const { token } = await newAccount();
    const init = await createdInit();
    const other = await createdInit();
    await approve(init.id, token, APPROVE_NEW);
    for (const authorization of [`Bearer ${other.secret}`, "Bearer nope", "Basic abc", "Bearer"]) {
      const response = await getInitStatus(init.id, { authorization, "user-agent": authorization });
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toContain("Bearer");
      expect((await response.json()).code).toBe("invalid_secret");
    }
    const prisma = await db();
    expect(await prisma.accessToken.count({ where: { projectId: init.id } })).toBe(0);
  });

  it("lets the person choose one of their projects", async () => {
    const { token } = await newAccount();
    const first = await createdInit();
    await approve(first.id, token, APPROVE_NEW);
    const second = await createdInit();
    await approve(second.id, token, { project: first.id, code_confirmed: "yes" });
    expect((await (await getInitStatus(second.id)).json()).project_id).toBe(first.id);
  });

  it("does not let a person approve into someone else's project", async () => {
    const owner = await newAccount();
    const intruder = await newAccount();
    const mine = await createdInit();
    await approve(mine.id, owner.token, APPROVE_NEW);
    const theirs = await createdInit();
    const before = await databaseSnapshot();
    const response = await approve(theirs.id, intruder.token, { project: mine.id, code_confirmed: "yes" });
    expect(response.headers.get("location")).toBe(`https://initlink.test/init/${theirs.id}?error=not_found`);
    expect(await databaseSnapshot()).toEqual(before);
  });

  it.each([
    ["without the box saying the person started it", { project: "new", name: "x" }, "not_confirmed"],
    ["with an empty project name", { project: "new", name: "  ", code_confirmed: "yes" }, "invalid_request"],
    ["with a project name over 100 characters", { project: "new", name: "n".repeat(101), code_confirmed: "yes" }, "invalid_request"],
  ])("refuses an approval %s and writes nothing", async (_label, fields, code) => {
    const { token } = await newAccount();
    const init = await createdInit();
    const before = await databaseSnapshot();
    const response = await approve(init.id, token, fields);
    expect(response.headers.get("location")).toBe(`https://initlink.test/init/${init.id}?error=${code}`);
    expect(await databaseSnapshot()).toEqual(before);
  });

  it("refuses approval when signed out, from another site, or with a stale session", async () => {
    const { token } = await newAccount();
    const init = await createdInit();
    const before = await databaseSnapshot();
    expect((await approve(init.id, "not-a-session", APPROVE_NEW)).headers.get("location")).toContain("error=unauthorized");
    expect((await approve(init.id, token, APPROVE_NEW, { origin: "https://evil.example" })).headers.get("location")).toContain("error=cross_site_request");
    expect((await approve(init.id, token, APPROVE_NEW, { origin: "null" })).headers.get("location")).toContain("error=cross_site_request");
    expect(await databaseSnapshot()).toEqual(before);
  });

  it("lets exactly one of 50 concurrent approvals win: one project, its approval in the activity, then one access token", async () => {
    const { token } = await newAccount();
    const init = await createdInit();
    const prisma = await db();
    const projectsBefore = await prisma.project.count();
    const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => approve(init.id, token, { ...APPROVE_NEW, name: `project ${i}` })));
    const locations = responses.map((response) => response.headers.get("location"));
    expect(locations.filter((location) => location === `https://initlink.test/init/${init.id}`)).toHaveLength(1);
    expect(locations.filter((location) => location?.endsWith("error=init_not_pending"))).toHaveLength(49);
    expect(await prisma.project.count()).toBe(projectsBefore + 1);
    expect(await prisma.project.count({ where: { id: init.id } })).toBe(1);
    expect(await prisma.activityEvent.count({ where: { subjectId: init.id, kind: "init_approved" } })).toBe(1);
    await getInitStatus(init.id, withSecret(init.secret));
    expect(await prisma.accessToken.count({ where: { projectId: init.id } })).toBe(1);
  });

  it("hands the token to exactly one of 50 concurrent pickups, and records the collection", async () => {
    const { token } = await newAccount();
    const init = await createdInit();
    await approve(init.id, token, APPROVE_NEW);
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => getInitStatus(init.id, withSecret(init.secret, `poller ${i}`)).then((response) => response.json())));
    expect(answers.filter((answer) => typeof answer.access_token === "string")).toHaveLength(1);
    const prisma = await db();
    expect(await prisma.accessToken.count({ where: { projectId: init.id } })).toBe(1);
    expect(await prisma.activityEvent.count({ where: { subjectId: init.id, kind: "token_collected" } })).toBe(1);
  });
});

describe("denying an init", () => {
  it("turns the status denied and the client never gets a token", async () => {
    const { token } = await newAccount();
    const init = await createdInit();
    expect((await deny(init.id, token)).headers.get("location")).toBe(`https://initlink.test/init/${init.id}`);
    const body = await (await getInitStatus(init.id, withSecret(init.secret))).json();
    expect(body.status).toBe("denied");
    expect(body).not.toHaveProperty("access_token");
    expect((await approve(init.id, token, APPROVE_NEW)).headers.get("location")).toContain("error=init_not_pending");
  });

  it("cannot deny an approved init", async () => {
    const { token } = await newAccount();
    const init = await createdInit();
    await approve(init.id, token, APPROVE_NEW);
    expect((await deny(init.id, token)).headers.get("location")).toContain("error=init_not_pending");
    expect((await (await getInitStatus(init.id)).json()).status).toBe("done");
  });
});
