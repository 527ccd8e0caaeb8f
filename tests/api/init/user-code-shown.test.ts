import { describe, expect, it } from "vitest";
import { db } from "@/lib/database/db";
import { createdInit } from "../../helpers/api";
import { approve, deny, newAccount } from "../../helpers/forms";
import { dispatch } from "../../helpers/in-process";

// Under the default INIT_CODE_CHECK=confirm the page shows the code to every
// signed-in viewer, so whoever holds the page URL could approve. A client that prints user_code
// says so (user_code_shown) and its init then needs the code typed (RFC 8628 §5.4); a client of
// the bare specification keeps the configured mode. Who decided is recorded.

// Read from the row: a second status poll within the interval would be a 429 slow_down.
const statusOf = async (id: string) => (await (await db()).init.findUniqueOrThrow({ where: { id } })).status;
const attemptsOf = async (id: string) => (await db()).init.findUniqueOrThrow({ where: { id }, select: { codeAttempts: true, wrongCodes: true } });
const errorOf = (response: Response) => new URL(response.headers.get("location") ?? "", "https://initlink.test").searchParams.get("error");

describe("Create Init's user_code_shown", () => {
  it("stores it; absent or null means a client of the bare specification", async () => {
    const prisma = await db();
    const shown = await createdInit({ sender: "@acme/cli", user_code_shown: true });
    const bare = await createdInit({ sender: "@acme/cli" });
    const nulled = await createdInit({ sender: "@acme/cli", user_code_shown: null });
    const rows = await prisma.init.findMany({ where: { id: { in: [shown.id, bare.id, nulled.id] } }, select: { id: true, userCodeShown: true } });
    expect(Object.fromEntries(rows.map((row) => [row.id, row.userCodeShown]))).toEqual({ [shown.id]: true, [bare.id]: false, [nulled.id]: false });
  });

  it("refuses a value that is not a boolean with 400 invalid_request, writing nothing", async () => {
    const prisma = await db();
    const before = await prisma.init.count();
    const response = await dispatch("POST", "/api/init", { body: JSON.stringify({ sender: "@acme/cli", user_code_shown: "yes" }), headers: { "content-type": "application/json" } });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "invalid_request", fields: [{ field: "user_code_shown" }] });
    expect(await prisma.init.count()).toBe(before);
  });

  it("makes Approve need the typed code even in confirm mode; no code typed is no wrong code", async () => {
    const { token } = await newAccount();
    const init = await createdInit({ sender: "@acme/cli", user_code_shown: true });
    expect(errorOf(await approve(init.id, token, { project: "new", name: "x", code_confirmed: "yes" }))).toBe("code_mismatch");
    expect(await statusOf(init.id)).toBe("pending");
    expect(await attemptsOf(init.id)).toEqual({ codeAttempts: 0, wrongCodes: 0 });
    expect(errorOf(await approve(init.id, token, { project: "new", name: "x", user_code: init.user_code.toLowerCase() }))).toBeNull();
    expect(await statusOf(init.id)).toBe("done");
  });

  // A client that does not say it prints the code is asked about no code: the page's box says the
  // person started it (the application, device and time named), and the operation asks the same.
  it("keeps confirm mode for a client that does not say it prints the code: the box that the person started it", async () => {
    const { token } = await newAccount();
    const init = await createdInit({ sender: "@acme/cli", user_code_shown: false });
    expect(errorOf(await approve(init.id, token, { project: "new", name: "x", user_code: init.user_code }))).toBe("not_confirmed");
    expect(await statusOf(init.id)).toBe("pending");
    expect(errorOf(await approve(init.id, token, { project: "new", name: "x", code_confirmed: "yes" }))).toBeNull();
    expect(await statusOf(init.id)).toBe("done");
  });
});

describe("who decided", () => {
  it("records the account that approved and the one that denied", async () => {
    const prisma = await db();
    const approver = await newAccount();
    const denier = await newAccount();
    const approved = await createdInit();
    const denied = await createdInit();
    await approve(approved.id, approver.token, { project: "new", name: "x", code_confirmed: "yes" });
    await deny(denied.id, denier.token);
    const ids = async (email: string) => (await prisma.user.findUniqueOrThrow({ where: { email } })).id;
    expect(await prisma.init.findUniqueOrThrow({ where: { id: approved.id }, select: { approvedById: true, deniedById: true } })).toEqual({
      approvedById: await ids(approver.email),
      deniedById: null,
    });
    expect(await prisma.init.findUniqueOrThrow({ where: { id: denied.id }, select: { approvedById: true, deniedById: true, status: true } })).toEqual({
      approvedById: null,
      deniedById: await ids(denier.email),
      status: "denied",
    });
  });
});
