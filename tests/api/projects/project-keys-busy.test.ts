import { describe, expect, it, vi } from "vitest";
import { config } from "@/lib/config";
import { db } from "@/lib/database/db";
import { prepareProjectKey, projectPublicKey } from "@/lib/projects/project-keys";
import { logger } from "@/server/logger.mjs";
import { createLink, linkSnapshot, randomIv, withToken } from "../../helpers/links";
import { accountWithKeylessProjects, keyOnceStored } from "../../helpers/project-keys";
import { rateLimitCounters } from "../../helpers/api";

// One generation at a time, no ready keys, and a wait bound far shorter than a generation.
vi.hoisted(() => {
  Object.assign(process.env, {
    PROJECT_KEY_THREADS: "1",
    PROJECT_KEY_RESERVE: "0",
    PROJECT_KEY_QUEUE_PER_ACCOUNT: "3",
    PROJECT_KEY_WAIT_MS: "200",
    // Real generations, whose time these rules are about: no pre-generated pairs.
    TEST_PROJECT_KEYS_FILE: "",
  });
});

// Real generations one at a time (0.5 s to 5 s each on an idle core), beside other test files
// on a shared machine: more than the suites' default minute.
describe("a busy key queue", { timeout: 180_000 }, () => {
  // A link whose key is not ready within the bound is answered 503 with
  // Retry-After instead of waiting without end, writes nothing, and its retry finds the key.
  it("answers 503 key_not_ready with Retry-After, writes nothing, and the retry gets the key", async () => {
    const busy = await accountWithKeylessProjects(3);
    for (const projectId of busy.projects) prepareProjectKey(config(), projectId);
    const prisma = await db();
    const counters = () => rateLimitCounters();
    const before = { ...(await linkSnapshot()), counters: await counters() };
    const iv = randomIv();
    // Third in line behind two generations: not ready within 200 ms.
    const refused = await createLink(busy.projects[2], iv, withToken(busy.personalToken));
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("2");
    expect(await refused.json()).toEqual({ success: false, error: "This project's key pair is still being generated. Try again shortly.", code: "key_not_ready" });
    expect({ ...(await linkSnapshot()), counters: await counters() }).toEqual(before);

    // The generation went on: retrying as Retry-After says ends in the link.
    let answer = refused;
    while (answer.status === 503) {
      await new Promise((resolve) => setTimeout(resolve, Number(answer.headers.get("retry-after")) * 1000));
      answer = await createLink(busy.projects[2], iv, withToken(busy.personalToken));
    }
    expect(answer.status).toBe(200);
    expect(await prisma.projectKey.count({ where: { projectId: busy.projects[2] } })).toBe(1);
    expect(await prisma.projectLink.count({ where: { projectId: busy.projects[2] } })).toBe(1);
  });

  // An approval that loses its race deletes the project it made; a request for that project's
  // key (its page, a link) may have started it meanwhile. Before: "project key generation failed" with a foreign-key error.
  it("lets a key whose project was deleted meanwhile go without an error", async () => {
    const account = await accountWithKeylessProjects(2);
    const [deleted, next] = account.projects;
    const errors = vi.spyOn(logger(), "error");
    try {
      prepareProjectKey(config(), deleted);
      // key_not_ready after 200 ms: the generation is under way.
      await expect(projectPublicKey(config(), deleted)).rejects.toMatchObject({ code: "key_not_ready" });
      const prisma = await db();
      await prisma.project.delete({ where: { id: deleted } });
      // One thread: the next project's key comes after the deleted one's has ended.
      await keyOnceStored(next);
      expect(await prisma.projectKey.count({ where: { projectId: deleted } })).toBe(0);
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
    }
  });
});
