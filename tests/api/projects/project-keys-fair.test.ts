import { describe, expect, it, vi } from "vitest";
import { config } from "@/lib/config";
import { db } from "@/lib/database/db";
import { keyWork } from "@/lib/projects/key-queue";
import { prepareProjectKey, projectPublicKey, storedKey } from "@/lib/projects/project-keys";
import { approvedClient, createLink, linked, linkSnapshot, randomIv, withToken } from "../../helpers/links";
import { accountWithKeylessProjects, keyOnceStored, keyStoredAt } from "../../helpers/project-keys";

// One generation at a time, no ready keys, and a wait bound of a minute: a 503 here can only
// come from the per-account cap, and the order keys are stored in is the queue's order.
vi.hoisted(() => {
  Object.assign(process.env, {
    PROJECT_KEY_THREADS: "1",
    PROJECT_KEY_RESERVE: "0",
    PROJECT_KEY_QUEUE_PER_ACCOUNT: "3",
    PROJECT_KEY_WAIT_MS: "60000",
    // Real generations, whose time these rules are about: no pre-generated pairs.
    TEST_PROJECT_KEYS_FILE: "",
  });
});

// Real generations one at a time (0.5 s to 5 s each on an idle core), beside other test files
// on a shared machine: more than the suites' default minute.
describe("project key generation across accounts", { timeout: 180_000 }, () => {
  // An account's backlog never holds up another account's key, and one
  // account queues at most PROJECT_KEY_QUEUE_PER_ACCOUNT generations.
  it("serves an unrelated account's first link before another account's queued generations, and caps what one account queues", async () => {
    const busy = await accountWithKeylessProjects(4);
    const unrelated = await approvedClient("Unrelated");
    await keyOnceStored(unrelated.projectId);
    const prisma = await db();
    // The unrelated project's key is not made yet when its first link arrives.
    await prisma.projectKey.deleteMany({ where: { projectId: unrelated.projectId } });

    // The busy account queues as many generations as it may: one runs, two wait.
    for (const projectId of busy.projects.slice(0, 3)) prepareProjectKey(config(), projectId);
    // Past its cap its link is refused at once, though the bound is a minute, and writes nothing.
    const before = await linkSnapshot();
    const refused = await createLink(busy.projects[3], randomIv(), withToken(busy.personalToken));
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("2");
    expect(refused.headers.get("cache-control")).toBe("no-store");
    expect(await refused.json()).toEqual({ success: false, error: expect.any(String), code: "key_not_ready" });
    expect(await linkSnapshot()).toEqual(before);

    // The unrelated account's link gets its key in its own turn.
    const link = await linked(unrelated.projectId, unrelated.accessToken);
    expect(link.public).toMatch(/^-----BEGIN PUBLIC KEY-----/);

    await Promise.all(busy.projects.slice(0, 3).map((projectId) => projectPublicKey(config(), projectId)));
    const storedAt = await keyStoredAt([...busy.projects, unrelated.projectId]);
    // Asked for after the busy account queued its last generation, served before it.
    expect(storedAt(unrelated.projectId)).toBeLessThan(storedAt(busy.projects[2])!);
    // The project refused by the cap is not kept for later (no backlog of
    // keys nobody asked for): the queue is idle and it has no key until its link asks again.
    expect(keyWork()).toMatchObject({ generating: 0, queued: 0 });
    expect(await storedKey(busy.projects[3])).toBeNull();
    expect((await linked(busy.projects[3], busy.personalToken)).public).toMatch(/^-----BEGIN PUBLIC KEY-----/);
  });

  it("stores a project's key exactly once when many requests ask for it at the same time", async () => {
    const client = await approvedClient();
    await keyOnceStored(client.projectId);
    const prisma = await db();
    await prisma.projectKey.deleteMany({ where: { projectId: client.projectId } });
    for (let i = 0; i < 5; i++) prepareProjectKey(config(), client.projectId);
    const responses = await Promise.all(Array.from({ length: 20 }, () => createLink(client.projectId, randomIv(), withToken(client.accessToken))));
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(200));
    const bodies = await Promise.all(responses.map((response) => response.json()));
    expect(new Set(bodies.map((body) => body.public)).size).toBe(1);
    expect(await prisma.projectKey.count({ where: { projectId: client.projectId } })).toBe(1);
    expect(await prisma.projectLink.count({ where: { projectId: client.projectId } })).toBe(20);
  });
});
