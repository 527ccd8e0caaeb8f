import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/database/db";
import { PEER_ADDRESS_HEADER } from "@/server/request-context.mjs";
import { approvalsSettingForm, addedPasskey, SoftwareAuthenticator, stepUpAssertion } from "../../helpers/passkeys";
import { cookieHeader, SITE } from "../../helpers/forms";
import { dispatch } from "../../helpers/in-process";
import { approvedClient, createLink, randomIv } from "../../helpers/links";

// "Approvals need a passkey" on the browser approval of an existing client's link
// (LEGACY_LINK_APPROVAL, docs/api.md, Compatibility): the assertion is bound to the project and iv.
vi.hoisted(() => {
  process.env.LEGACY_LINK_APPROVAL = "on";
});

const LEGACY_CLIENT = { "user-agent": "envsync-cli/1.4.2", [PEER_ADDRESS_HEADER]: "198.51.100.7" };

// The person approves from the client's own address: from another network the link cannot be
// approved at all (client_elsewhere), passkey or not.
const approveLink = (session: string, projectId: string, iv: string, fields: Record<string, string> = {}) =>
  dispatch("POST", `/projects/${projectId}/link/${iv}/approve`, {
    body: new URLSearchParams(fields).toString(),
    headers: { origin: SITE, "content-type": "application/x-www-form-urlencoded", [PEER_ADDRESS_HEADER]: LEGACY_CLIENT[PEER_ADDRESS_HEADER], ...cookieHeader(session) },
  });

const linkApprovalStatus = async (projectId: string, iv: string) => (await (await db()).linkApproval.findFirst({ where: { projectId, iv } }))?.status;

describe("a browser link approval when approvals need a passkey", () => {
  it("is refused without an assertion or with one made for another link, and approved with one made for it", async () => {
    const owner = await approvedClient("Payments");
    const authenticator = new SoftwareAuthenticator();
    await addedPasskey(owner.session, authenticator);
    await approvalsSettingForm(owner.session, { required: "on" });
    const iv = randomIv();
    expect((await createLink(owner.projectId, iv, LEGACY_CLIENT)).status).toBe(202);

    const page = `${SITE}/projects/${owner.projectId}/link/${iv}`;
    expect((await approveLink(owner.session, owner.projectId, iv)).headers.get("location")).toBe(`${page}?error=passkey_required`);
    const otherLink = await stepUpAssertion(owner.session, authenticator, { kind: "link", projectId: owner.projectId, iv: randomIv() });
    expect((await approveLink(owner.session, owner.projectId, iv, { passkey_assertion: otherLink })).headers.get("location")).toBe(`${page}?error=passkey_rejected`);
    expect(await linkApprovalStatus(owner.projectId, iv)).toBe("waiting");

    const thisLink = await stepUpAssertion(owner.session, authenticator, { kind: "link", projectId: owner.projectId, iv });
    expect((await approveLink(owner.session, owner.projectId, iv, { passkey_assertion: thisLink })).headers.get("location")).toBe(page);
    expect(await linkApprovalStatus(owner.projectId, iv)).toBe("approved");
    expect((await createLink(owner.projectId, iv, LEGACY_CLIENT)).status).toBe(200);
  });
});
