import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/database/db";
import { createdInit, databaseSnapshot, getInitStatus } from "../../helpers/api";

afterEach(() => {
  vi.useRealTimers();
});

function travelTo(ms: number) {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(ms);
}

describe("GET /api/init/{id} — init status", () => {
  it("answers 200 with the status, the time of the answer, the interval and the expiry", async () => {
    const init = await createdInit();
    const before = Date.now();
    const response = await getInitStatus(init.id);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await response.json();
    expect(body).toEqual({ id: init.id, status: "pending", timestamp: expect.any(Number), interval: 5000, expires_at: init.expires_at });
    expect(body.timestamp).toBeGreaterThanOrEqual(before);
  });

  it.each([
    ["an unknown id", "AAAAAAAAAAAAAAAAAAAAAA"],
    ["a malformed id", "not-an-id"],
    ["a path traversal", ".."],
    ["an id with a NUL", "AAAAAAAAAAAAAAAAAAAAA\u0000"],
    ["an over-long id", "A".repeat(5000)],
  ])("answers 404 with a JSON error for %s", async (_label, id) => {
    const before = await databaseSnapshot();
    const response = await getInitStatus(id);
    expect(response.status).toBe(404);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ error: "No init with this id exists.", code: "not_found" });
    expect(await databaseSnapshot()).toEqual(before);
  });

  // An init past expires_at reads as expired whether or not a sweeper has run.
  it("reads as expired once expires_at has passed, with the row still pending", async () => {
    const init = await createdInit();
    travelTo(init.expires_at);
    const body = await (await getInitStatus(init.id)).json();
    expect(body.status).toBe("expired");
    const prisma = await db();
    expect((await prisma.init.findUniqueOrThrow({ where: { id: init.id } })).status).toBe("pending");
  });

  it("reads done and denied as stored, even past expiry", async () => {
    const prisma = await db();
    const done = await createdInit();
    const denied = await createdInit();
    await prisma.init.update({ where: { id: done.id }, data: { status: "done" } });
    await prisma.init.update({ where: { id: denied.id }, data: { status: "denied" } });
    travelTo(done.expires_at + 60_000);
    expect((await (await getInitStatus(done.id)).json()).status).toBe("done");
    expect((await (await getInitStatus(denied.id)).json()).status).toBe("denied");
  });
});
