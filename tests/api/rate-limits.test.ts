import { beforeEach, describe, expect, it, vi } from "vitest";
import { addressSubject } from "@/lib/limits/rate-limit";
import { db } from "@/lib/db";
import { createInitJson } from "../helpers/api";

// This file runs a low Create Init limit.
vi.hoisted(() => {
  process.env.CREATE_INIT_PER_MINUTE = "3";
});

const from = (address: string) => ({ "x-initlink-peer": address });

// Windows are fixed minutes: start each test well inside one, so no count resets halfway.
beforeEach(async () => {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 5_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
});

describe("Create Init per client address", () => {
  it("answers 429 with Retry-After past the limit, writing no init, and counts each address apart", async () => {
    const prisma = await db();
    for (let i = 0; i < 3; i++) expect((await createInitJson({ sender: "@acme/cli" }, from("192.0.2.1"))).status).toBe(201);
    const refused = await createInitJson({ sender: "@acme/cli" }, from("192.0.2.1"));
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await refused.json()).toMatchObject({ code: "rate_limited", error: expect.stringContaining("at most 3 per 60 s") });
    expect(await prisma.init.count()).toBe(3);
    // A refused request does not push the counter further.
    expect((await prisma.rateLimit.findFirstOrThrow({ where: { key: "create-init:192.0.2.1" } })).count).toBe(4);
    expect((await createInitJson({ sender: "@acme/cli" }, from("192.0.2.1"))).status).toBe(429);
    expect((await prisma.rateLimit.findFirstOrThrow({ where: { key: "create-init:192.0.2.1" } })).count).toBe(4);
    expect((await createInitJson({ sender: "@acme/cli" }, from("192.0.2.2"))).status).toBe(201);
  });

  it("does not count requests refused as invalid", async () => {
    for (let i = 0; i < 5; i++) expect((await createInitJson({ sender: "" }, from("198.51.100.7"))).status).toBe(400);
    expect((await createInitJson({ sender: "@acme/cli" }, from("198.51.100.7"))).status).toBe(201);
  });

  it("holds exactly under concurrent requests", async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => createInitJson({ sender: "@acme/cli" }, from("203.0.113.9"))));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(3);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(17);
  });

  it("limits IPv6 clients by /64", async () => {
    expect(addressSubject("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressSubject("2001:0db8:0001:0002:ffff:1:2:3")).toBe("2001:db8:1:2::/64");
    expect(addressSubject("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressSubject("::1")).toBe("0:0:0:0::/64");
    for (let i = 0; i < 3; i++) expect((await createInitJson({ sender: "@acme/cli" }, from(`2001:db8:5:6::${i + 1}`))).status).toBe(201);
    expect((await createInitJson({ sender: "@acme/cli" }, from("2001:db8:5:6:ffff::9"))).status).toBe(429);
    expect((await createInitJson({ sender: "@acme/cli" }, from("2001:db8:5:7::1"))).status).toBe(201);
  });
});
