import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/database/db";
import { createdInit, rateLimitCounter } from "../../helpers/api";
import { approve, newAccount } from "../../helpers/forms";
import { startInFreshWindow } from "../../helpers/clock";

// Projects made by approval are limited per address and per account each hour
// (the number per account: new-project-cap.test.ts); each limit holds under 50 concurrent
// approvals, on SQLite and PostgreSQL alike, and a refused approval writes nothing (its init
// stays pending) while approving into an existing project still works.
vi.hoisted(() => {
  Object.assign(process.env, { NEW_PROJECTS_PER_ACCOUNT_PER_HOUR: "5", NEW_PROJECTS_PER_ADDRESS_PER_HOUR: "12" });
});

const CONCURRENT = 50;
const HOUR_MS = 3_600_000;
// Approving browsers on the clients' network (127.0.0.0/24, where the inits come from), one
// address each test: proximity (lib/init/proximity.ts) lets them approve with a ticked box.
const from = (address: string) => ({ "x-initlink-peer": address });
const errorOf = (response: Response) => new URL(response.headers.get("location") ?? "", "https://initlink.test").searchParams.get("error");
const counter = async (key: string) => (await rateLimitCounter(key))?.count ?? 0;

// Hourly windows: each test starts at the beginning of one, so no count resets halfway.
beforeEach(() => startInFreshWindow(HOUR_MS));
afterEach(() => vi.useRealTimers());

async function person() {
  const { email, token } = await newAccount();
  const user = await (await db()).user.findUniqueOrThrow({ where: { email }, select: { id: true } });
  return { token, userId: user.id };
}

const pendingInits = (count: number) => Promise.all(Array.from({ length: count }, () => createdInit({ sender: "@acme/cli" })));

/** Approves each init into a new project at once; the error each answer came back with (null: approved). */
async function approveAllNew(approvals: { initId: string; token: string }[], address: string) {
  const answers = await Promise.all(
    approvals.map(({ initId, token }, i) => approve(initId, token, { project: "new", name: `New ${i}`, code_confirmed: "yes" }, from(address))),
  );
  for (const answer of answers) expect(answer.status).toBe(303);
  return answers.map(errorOf);
}

async function statusesOf(initIds: string[]) {
  const inits = await (await db()).init.findMany({ where: { id: { in: initIds } }, select: { status: true } });
  return inits.map((init) => init.status).sort();
}

describe("new projects per account per hour (NEW_PROJECTS_PER_ACCOUNT_PER_HOUR=5)", () => {
  it(`makes exactly 5 of ${CONCURRENT} concurrent approvals into new projects; the rest are refused and write nothing`, async () => {
    const { token, userId } = await person();
    const inits = await pendingInits(CONCURRENT);
    const errors = await approveAllNew(
      inits.map((init) => ({ initId: init.id, token })),
      "127.0.0.60",
    );
    expect(errors.filter((error) => error === null)).toHaveLength(5);
    expect(errors.filter((error) => error === "too_many_new_projects")).toHaveLength(CONCURRENT - 5);
    const prisma = await db();
    expect(await prisma.project.count({ where: { ownerId: userId } })).toBe(5);
    expect(await statusesOf(inits.map((init) => init.id))).toEqual([...Array(5).fill("done"), ...Array(CONCURRENT - 5).fill("pending")]);
    expect(await counter(`new-projects-account:${userId}`)).toBe(5);
    expect(await counter("new-projects-address:127.0.0.60")).toBe(5);

    // A refused init can still be approved into one of the account's projects.
    const refused = inits[errors.indexOf("too_many_new_projects")];
    const existing = await prisma.project.findFirstOrThrow({ where: { ownerId: userId }, select: { id: true } });
    expect(errorOf(await approve(refused.id, token, { project: existing.id, code_confirmed: "yes" }, from("127.0.0.60")))).toBeNull();
    expect(await prisma.init.findUniqueOrThrow({ where: { id: refused.id }, select: { status: true, projectId: true } })).toEqual({ status: "done", projectId: existing.id });
  });

  it("allows new projects again in the next hour", async () => {
    const { token } = await person();
    const approveNew = async () => {
      const init = await createdInit({ sender: "@acme/cli" });
      return errorOf(await approve(init.id, token, { project: "new", name: "Mine", code_confirmed: "yes" }, from("127.0.0.61")));
    };
    for (let i = 0; i < 5; i++) expect(await approveNew()).toBeNull();
    expect(await approveNew()).toBe("too_many_new_projects");
    vi.setSystemTime(Date.now() + HOUR_MS);
    expect(await approveNew()).toBeNull();
  });
});

describe("new projects per address per hour (NEW_PROJECTS_PER_ADDRESS_PER_HOUR=12)", () => {
  it(`makes exactly 12 of ${CONCURRENT} concurrent approvals by 10 accounts from one address`, async () => {
    const people = await Promise.all(Array.from({ length: 10 }, () => person()));
    const inits = await pendingInits(CONCURRENT);
    const errors = await approveAllNew(
      inits.map((init, i) => ({ initId: init.id, token: people[i % people.length].token })),
      "127.0.0.62",
    );
    expect(errors.filter((error) => error === null)).toHaveLength(12);
    expect(errors.filter((error) => error === "too_many_new_projects")).toHaveLength(CONCURRENT - 12);
    const owners = people.map((one) => one.userId);
    expect(await (await db()).project.count({ where: { ownerId: { in: owners } } })).toBe(12);
    expect(await counter("new-projects-address:127.0.0.62")).toBe(12);
    const perAccount = await Promise.all(owners.map((userId) => counter(`new-projects-account:${userId}`)));
    expect(perAccount.reduce((sum, count) => sum + count, 0)).toBe(12);
  });
});
