import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/database/db";
import { randomId } from "@/lib/secrets";
import { createdInit, rateLimitCounter } from "../../helpers/api";
import { approve, newAccount } from "../../helpers/forms";

// One account holds at most PROJECTS_PER_ACCOUNT projects, however many
// approvals into new projects arrive at once, on SQLite and PostgreSQL alike; a refusal writes
// nothing (its init stays pending, its hourly units go back). The hourly limits are out of the
// way here (vitest.config.ts); new-project.test.ts tests them.
vi.hoisted(() => {
  Object.assign(process.env, { PROJECTS_PER_ACCOUNT: "10" });
});

const CONCURRENT = 50;
// On the network the inits come from (127.0.0.0/24): proximity lets it approve with a ticked box.
const ADDRESS = "127.0.0.63";
const errorOf = (response: Response) => new URL(response.headers.get("location") ?? "", "https://initlink.test").searchParams.get("error");
const counter = async (key: string) => (await rateLimitCounter(key))?.count ?? 0;

describe("projects per account (PROJECTS_PER_ACCOUNT=10)", () => {
  it(`makes exactly 3 of ${CONCURRENT} concurrent approvals for an account holding 7; the rest get project_limit_reached and count nowhere`, async () => {
    const { email, token } = await newAccount();
    const prisma = await db();
    const { id: userId } = await prisma.user.findUniqueOrThrow({ where: { email }, select: { id: true } });
    for (let i = 0; i < 7; i++) await prisma.project.create({ data: { id: randomId(), name: `Old ${i}`, ownerId: userId, createdAt: new Date() } });
    const inits = await Promise.all(Array.from({ length: CONCURRENT }, () => createdInit({ sender: "@acme/cli" })));
    const answers = await Promise.all(
      inits.map((init, i) => approve(init.id, token, { project: "new", name: `New ${i}`, code_confirmed: "yes" }, { "x-initlink-peer": ADDRESS })),
    );
    const errors = answers.map(errorOf);
    expect(errors.filter((error) => error === null)).toHaveLength(3);
    expect(errors.filter((error) => error === "project_limit_reached")).toHaveLength(CONCURRENT - 3);
    expect(await prisma.project.count({ where: { ownerId: userId } })).toBe(10);
    const statuses = await prisma.init.findMany({ where: { id: { in: inits.map((init) => init.id) } }, select: { status: true } });
    expect(statuses.map((init) => init.status).sort()).toEqual([...Array(3).fill("done"), ...Array(CONCURRENT - 3).fill("pending")]);
    expect(await counter(`new-projects-account:${userId}`)).toBe(3);
    expect(await counter(`new-projects-address:${ADDRESS}`)).toBe(3);

    // Full, the account can still approve into one of its projects.
    const refused = inits[errors.indexOf("project_limit_reached")];
    const old = await prisma.project.findFirstOrThrow({ where: { ownerId: userId, name: "Old 0" }, select: { id: true } });
    expect(errorOf(await approve(refused.id, token, { project: old.id, code_confirmed: "yes" }, { "x-initlink-peer": ADDRESS }))).toBeNull();
  });
});
