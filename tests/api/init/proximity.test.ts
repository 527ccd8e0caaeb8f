import { describe, expect, it } from "vitest";
import { db } from "@/lib/database/db";
import { PEER_ADDRESS_HEADER } from "@/server/request-context.mjs";
import { approve, newAccount } from "../../helpers/forms";
import { inProcess } from "../../helpers/in-process";
import { createInit } from "../../helpers/journey.mjs";

// Proximity (RFC 10027): Approve compares where the init came from with where
// the approving browser is, both as the service saw them (lib/init/proximity.ts), and asks
// accordingly (lib/init/code-check-mode.ts): from the client's network, the configured check;
// from elsewhere, the typed code, and nothing at all for a client that shows no code.

const from = (address: string) => ({ [PEER_ADDRESS_HEADER]: address });
const errorOf = (response: Response) => new URL(response.headers.get("location") ?? "", "https://initlink.test").searchParams.get("error");
const CONFIRMED = { project: "new", name: "Nearby", code_confirmed: "yes" };

async function initRow(id: string) {
  const prisma = await db();
  return prisma.init.findUniqueOrThrow({ where: { id }, select: { status: true, codeAttempts: true, wrongCodes: true, approvedById: true } });
}

describe("approving from near the client or from elsewhere", () => {
  it.each([
    ["the same address", "198.51.100.7", "198.51.100.7"],
    ["the same IPv4 /24", "198.51.100.7", "198.51.100.250"],
    ["the same IPv6 /56", "2001:db8:1:1200::5", "2001:db8:1:12ff::9"],
    ["one address in two spellings", "::ffff:198.51.100.7", "198.51.100.7"],
  ])("lets %s approve with the configured check (a ticked box)", async (_, client, browser) => {
    const { token } = await newAccount();
    const init = await createInit(inProcess, { sender: "@acme/cli" }, from(client));
    expect(errorOf(await approve(init.id, token, CONFIRMED, from(browser)))).toBeNull();
    expect((await initRow(init.id)).status).toBe("done");
  });

  // The original platform's CLI prints no code: a box beside a code it never showed proves nothing.
  it.each([
    ["another IPv4 /24", "198.51.100.7", "198.51.101.7"],
    ["another IPv6 /56", "2001:db8:1:1200::5", "2001:db8:1:1300::5"],
    ["another family", "198.51.100.7", "2001:db8::7"],
  ])("refuses a client that shows no code from %s with client_elsewhere, writing nothing", async (_, client, browser) => {
    const { token } = await newAccount();
    const init = await createInit(inProcess, { sender: "@acme/cli" }, from(client));
    const prisma = await db();
    const events = await prisma.activityEvent.count();
    const response = await approve(init.id, token, { ...CONFIRMED, user_code: init.user_code }, from(browser));
    expect(response.status).toBe(303);
    expect(errorOf(response)).toBe("client_elsewhere");
    expect(await initRow(init.id)).toEqual({ status: "pending", codeAttempts: 0, wrongCodes: 0, approvedById: null });
    expect(await prisma.project.count({ where: { id: init.id } })).toBe(0);
    expect(await prisma.activityEvent.count()).toBe(events);
  });

  it("needs the typed code of a client that shows one from elsewhere, never a ticked box", async () => {
    const { token } = await newAccount();
    const init = await createInit(inProcess, { sender: "@acme/cli", user_code_shown: true }, from("198.51.100.7"));
    expect(errorOf(await approve(init.id, token, CONFIRMED, from("203.0.113.9")))).toBe("code_mismatch");
    expect((await initRow(init.id)).status).toBe("pending");
    expect(errorOf(await approve(init.id, token, { project: "new", name: "Remote box", user_code: init.user_code }, from("203.0.113.9")))).toBeNull();
    expect((await initRow(init.id)).status).toBe("done");
  });

  it("treats an approving browser whose address is unknown as elsewhere", async () => {
    const { token } = await newAccount();
    const init = await createInit(inProcess, { sender: "@acme/cli" }, from("198.51.100.7"));
    // A peer that is no address (what a broken proxy line might give): not the client's network.
    expect(errorOf(await approve(init.id, token, CONFIRMED, from("unknown")))).toBe("client_elsewhere");
  });

  it("refuses the other concurrent approvals from elsewhere while the nearby one wins", async () => {
    const { token } = await newAccount();
    const init = await createInit(inProcess, { sender: "@acme/cli" }, from("198.51.100.7"));
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, at) => approve(init.id, token, { ...CONFIRMED, name: `Race ${at}` }, from(at === 7 ? "198.51.100.8" : `203.0.113.${at + 1}`))),
    );
    const errors = answers.map(errorOf);
    expect(errors.filter((error) => error === null)).toHaveLength(1);
    expect(errors[7]).toBeNull();
    expect(errors.filter((error) => error === "client_elsewhere")).toHaveLength(19);
  });
});
