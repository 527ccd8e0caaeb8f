import { describe, expect, it } from "vitest";
import { db } from "@/lib/database/db";
import { findInitView } from "@/lib/init/init-view";
import { createdInit } from "../../helpers/api";
import { approve, deny, newAccount } from "../../helpers/forms";

// The init page's URL may leak (SECURITY.md, "Stolen init id"). The client's
// device, operating system and addresses (an IP address is personal data) go to a signed-in
// account while the init is pending, to the account that decided it once decided, and to
// nobody once it expired; the application's name and the status to anyone with the id.

const REPORTED = { sender: "@acme/cli", sender_device: "Ana's laptop", sender_os: "macOS 15", sender_ip: "8.8.8.8" };
const DETAILS = { senderDevice: "Ana's laptop", senderOs: "macOS 15", senderIp: "8.8.8.8", observedIp: "127.0.0.1", addressMismatch: true };

async function person() {
  const account = await newAccount();
  const prisma = await db();
  return { ...account, id: (await prisma.user.findUniqueOrThrow({ where: { email: account.email } })).id };
}

describe("findInitView: who sees the client's details", () => {
  it("pending: any signed-in account, never a signed-out visitor, who sees the application and the status", async () => {
    const init = await createdInit(REPORTED);
    const viewer = await person();
    expect(await findInitView(init.id, null)).toMatchObject({ sender: "@acme/cli", status: "pending", details: null });
    expect((await findInitView(init.id, viewer.id))?.details).toEqual(DETAILS);
  });

  it("approved or denied: the account that decided only", async () => {
    const [decider, other] = [await person(), await person()];
    const approved = await createdInit(REPORTED);
    const denied = await createdInit(REPORTED);
    expect((await approve(approved.id, decider.token, { project: "new", name: "Seen", code_confirmed: "yes" })).headers.get("location")).not.toContain("error");
    expect((await deny(denied.id, decider.token)).status).toBe(303);
    for (const init of [approved, denied]) {
      expect((await findInitView(init.id, decider.id))?.details).toEqual(DETAILS);
      expect((await findInitView(init.id, other.id))?.details).toBeNull();
      expect(await findInitView(init.id, null)).toMatchObject({ sender: "@acme/cli", details: null });
    }
  });

  it("expired: nobody, since nobody decided", async () => {
    const init = await createdInit(REPORTED);
    const viewer = await person();
    const prisma = await db();
    await prisma.init.update({ where: { id: init.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await findInitView(init.id, viewer.id)).toMatchObject({ status: "expired", details: null });
  });
});
