import { describe, expect, it } from "vitest";
import { db } from "@/lib/database/db";
import { keyWork } from "@/lib/projects/key-queue";
import { createdInit } from "../../helpers/api";
import { approve, newAccount } from "../../helpers/forms";
import { linked } from "../../helpers/links";
import { pickUpToken } from "../../helpers/journey.mjs";
import { inProcess } from "../../helpers/in-process";

const APPROVALS = 8;

describe("a project's key is generated when first needed", () => {
  // Keys as a CPU sink: every approval into a new project started an RSA-4096 generation (about a
  // CPU-second), and an account's backlog of keyless projects got keys nobody asked for. Now
  // approvals generate nothing; the first link generates its own project's key, and only that.
  it(`generates no key for ${APPROVALS} approvals into new projects, and one for the first link`, async () => {
    const { token } = await newAccount();
    const inits = [];
    for (let i = 0; i < APPROVALS; i++) inits.push(await createdInit({ sender: "@acme/cli" }));
    const before = keyWork().started;
    for (const [i, init] of inits.entries()) {
      const answer = await approve(init.id, token, { project: "new", name: `Project ${i}`, code_confirmed: "yes" });
      expect(answer.headers.get("location")).toBe(`https://initlink.test/init/${init.id}`);
    }
    const prisma = await db();
    const projects = inits.map((init) => init.id);
    expect(await prisma.project.count({ where: { id: { in: projects } } })).toBe(APPROVALS);

    // The first project's client links: its key is generated then. Waiting for it also gives
    // any generation an approval might have started the time to be counted.
    const pickup = await pickUpToken(inProcess, inits[0]);
    expect((await linked(pickup.project_id, pickup.access_token)).public).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(keyWork()).toEqual({ started: before + 1, generating: 0, queued: 0 });
    expect(await prisma.projectKey.findMany({ where: { projectId: { in: projects } }, select: { projectId: true } })).toEqual([{ projectId: projects[0] }]);
  });
});
