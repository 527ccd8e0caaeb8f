import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/database/db";
import { createdInit, getInitStatus } from "../../helpers/api";
import { approve, newAccount } from "../../helpers/forms";

// This file runs the strict mode: the page does not show the code, the person types it.
vi.hoisted(() => {
  process.env.INIT_CODE_CHECK = "enter";
});

describe("INIT_CODE_CHECK=enter (RFC 8628 §5.4)", () => {
  it("approves when the typed code matches, ignoring case, spaces and dashes", async () => {
    const { token } = await newAccount();
    const init = await createdInit();
    const typed = ` ${init.user_code.toLowerCase().replace("-", " ")} `;
    const response = await approve(init.id, token, { project: "new", name: "x", user_code: typed });
    expect(response.headers.get("location")).toBe(`https://initlink.test/init/${init.id}`);
    expect((await (await getInitStatus(init.id)).json()).status).toBe("done");
  });

  it("does not accept a mere confirmation in strict mode", async () => {
    const { token } = await newAccount();
    const init = await createdInit();
    const response = await approve(init.id, token, { project: "new", name: "x", code_confirmed: "yes" });
    expect(response.headers.get("location")).toContain("error=code_mismatch");
  });

  it("denies the init after five wrong codes", async () => {
    const { token } = await newAccount();
    const init = await createdInit();
    const wrong = { project: "new", name: "x", user_code: "AAAA-AAAA" };
    for (let attempt = 1; attempt <= 4; attempt++) {
      expect((await approve(init.id, token, wrong)).headers.get("location")).toContain("error=code_mismatch");
    }
    expect((await approve(init.id, token, wrong)).headers.get("location")).toContain("error=init_not_pending");
    expect((await (await getInitStatus(init.id)).json()).status).toBe("denied");
    const right = { project: "new", name: "x", user_code: init.user_code };
    expect((await approve(init.id, token, right)).headers.get("location")).toContain("error=init_not_pending");
  });

  // An attempt is taken before the code is compared, so 50 concurrent wrong
  // codes get exactly five comparisons (four code_mismatch, the fifth denies), never more.
  it("compares at most five of 50 concurrent wrong codes, and denies the init", async () => {
    const { token } = await newAccount();
    const init = await createdInit();
    const wrong = { project: "new", name: "x", user_code: "AAAA-AAAA" };
    const answers = await Promise.all(Array.from({ length: 50 }, () => approve(init.id, token, wrong)));
    const errors = answers.map((answer) => new URL(answer.headers.get("location") ?? "", "https://initlink.test").searchParams.get("error"));
    expect(errors.filter((error) => error === "code_mismatch")).toHaveLength(4);
    expect(errors.filter((error) => error !== "code_mismatch").every((error) => error === "init_not_pending" || error === "rate_limited")).toBe(true);
    const prisma = await db();
    expect((await prisma.init.findUniqueOrThrow({ where: { id: init.id }, select: { codeAttempts: true } })).codeAttempts).toBe(5);
    expect((await (await getInitStatus(init.id)).json()).status).toBe("denied");
  });

  it("counts only wrong codes: a right one gives its attempt back", async () => {
    const { token } = await newAccount();
    const init = await createdInit();
    for (let attempt = 1; attempt <= 4; attempt++) {
      expect((await approve(init.id, token, { project: "new", name: "x", user_code: "AAAA-AAAA" })).headers.get("location")).toContain("error=code_mismatch");
    }
    expect((await approve(init.id, token, { project: "new", name: "x", user_code: init.user_code })).headers.get("location")).toBe(`https://initlink.test/init/${init.id}`);
    const prisma = await db();
    expect((await prisma.init.findUniqueOrThrow({ where: { id: init.id }, select: { codeAttempts: true, status: true } }))).toEqual({ codeAttempts: 4, status: "done" });
  });

  // Only a fifth wrong code denies: a fourth wrong one compared beside a right one is a
  // mismatch whichever of the two takes its attempt first, and the right one approves.
  it("lets a right code approve that is compared beside the fourth wrong one", async () => {
    const { token } = await newAccount();
    const init = await createdInit();
    const wrong = { project: "new", name: "x", user_code: "AAAA-AAAA" };
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect((await approve(init.id, token, wrong)).headers.get("location")).toContain("error=code_mismatch");
    }
    const [fourth, right] = await Promise.all([approve(init.id, token, wrong), approve(init.id, token, { ...wrong, user_code: init.user_code })]);
    expect(fourth.headers.get("location")).toContain("error=code_mismatch");
    expect(right.headers.get("location")).toBe(`https://initlink.test/init/${init.id}`);
    expect((await (await getInitStatus(init.id)).json()).status).toBe("done");
    const prisma = await db();
    expect(await prisma.init.findUniqueOrThrow({ where: { id: init.id }, select: { codeAttempts: true, wrongCodes: true } })).toEqual({ codeAttempts: 4, wrongCodes: 4 });
  });
});
