import { describe, expect, it } from "vitest";
import { SHOWN_TOKEN_LENGTH } from "@/lib/access-tokens/issue-access-token";
import { listAccessTokens } from "@/lib/access-tokens/manage-access-tokens";
import { db } from "@/lib/database/db";
import { hashSecret } from "@/lib/secrets";
import { createTokenForm, newAccount, revokeLinkForm, revokeTokenForm } from "../../helpers/forms";
import { approvedClient, createLink, getProject, linked, linkSnapshot, randomIv, withToken } from "../../helpers/links";

// The settings page's token forms and the project page's link revocation, through their routes.

const NEW_TOKEN = { name: "laptop CLI", scope: "all", lifetime: "30" };

describe("creating an access token on the settings page", () => {
  it("answers the token once, as JSON, and stores only its hash", async () => {
    const client = await approvedClient();
    const response = await createTokenForm(client.session, NEW_TOKEN);
    expect(response.status).toBe(201);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await response.json();
    expect(body).toEqual({ id: expect.any(String), token: expect.stringMatching(/^ilat_[A-Za-z0-9_-]{43}$/), name: "laptop CLI", expires_at: expect.any(Number) });
    expect(body.expires_at).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    const prisma = await db();
    const stored = await prisma.accessToken.findUniqueOrThrow({ where: { id: body.id } });
    expect(stored).toMatchObject({ tokenHash: hashSecret(body.token), projectId: null, name: "laptop CLI" });
    expect(JSON.stringify(stored)).not.toContain(body.token);
    // The list shows the token's start, enough to match a token someone holds, and no more.
    const listed = (await listAccessTokens(stored.userId)).find((token) => token.id === body.id);
    expect(listed?.prefix).toBe(body.token.slice(0, SHOWN_TOKEN_LENGTH));
    expect(SHOWN_TOKEN_LENGTH).toBe("ilat_".length + 4);
    // A personal token reaches the person's projects.
    expect((await createLink(client.projectId, randomIv(), withToken(body.token))).status).toBe(200);
  });

  it("makes a token for one project, and one that never expires", async () => {
    const client = await approvedClient();
    const body = await (await createTokenForm(client.session, { name: "ci", scope: client.projectId, lifetime: "never" })).json();
    expect(body.expires_at).toBeNull();
    const prisma = await db();
    expect(await prisma.accessToken.findUniqueOrThrow({ where: { id: body.id } })).toMatchObject({ projectId: client.projectId, expiresAt: null });
  });

  it.each([
    ["from another site", NEW_TOKEN, { origin: "https://evil.example" }, 403, "cross_site_request"],
    ["without a name", { ...NEW_TOKEN, name: "  " }, {}, 400, "invalid_request"],
    ["with a control character in the name", { ...NEW_TOKEN, name: "a\u0007b" }, {}, 400, "invalid_request"],
    ["with an unknown lifetime", { ...NEW_TOKEN, lifetime: "1000" }, {}, 400, "invalid_request"],
    ["for a project that is not the person's", { ...NEW_TOKEN, scope: "AAAAAAAAAAAAAAAAAAAAAA" }, {}, 404, "not_found"],
  ])("refuses a token %s, writing nothing", async (_case, fields, headers, status, code) => {
    const client = await approvedClient();
    const before = await linkSnapshot();
    const response = await createTokenForm(client.session, fields, headers);
    expect(response.status).toBe(status);
    expect(await response.json()).toMatchObject({ code, error: expect.any(String) });
    expect(await linkSnapshot()).toEqual(before);
  });

  it("refuses a token to someone signed out", async () => {
    const before = await linkSnapshot();
    const response = await createTokenForm("no-such-session", NEW_TOKEN);
    expect(response.status).toBe(401);
    expect((await response.json()).code).toBe("unauthorized");
    expect(await linkSnapshot()).toEqual(before);
  });
});

describe("revoking", () => {
  it("an access token stops it at once, and only its owner can", async () => {
    const client = await approvedClient();
    const stranger = await newAccount();
    const created = await (await createTokenForm(client.session, NEW_TOKEN)).json();
    const prisma = await db();

    const byStranger = await revokeTokenForm(stranger.token, created.id);
    expect(byStranger.headers.get("location")).toBe("https://initlink.test/settings/tokens?error=not_found");
    const crossSite = await revokeTokenForm(client.session, created.id, { origin: "https://evil.example" });
    expect(crossSite.headers.get("location")).toBe("https://initlink.test/settings/tokens?error=cross_site_request");
    expect((await prisma.accessToken.findUniqueOrThrow({ where: { id: created.id } })).revokedAt).toBeNull();

    const revoked = await revokeTokenForm(client.session, created.id);
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get("location")).toBe(`https://initlink.test/settings/tokens?revoked=${created.id}`);
    expect((await prisma.accessToken.findUniqueOrThrow({ where: { id: created.id } })).revokedAt).not.toBeNull();
    expect((await createLink(client.projectId, randomIv(), withToken(created.token))).status).toBe(401);
  });

  it("a link from the project page stops its bearer at once, and only the owner can", async () => {
    const client = await approvedClient();
    const other = await approvedClient("Other");
    const link = await linked(client.projectId, client.accessToken);
    const prisma = await db();

    const byStranger = await revokeLinkForm(other.session, client.projectId, link.link_id);
    expect(byStranger.headers.get("location")).toBe(`https://initlink.test/projects/${client.projectId}?error=not_found`);
    // The owner of another project cannot reach this link through their own project either.
    const throughOtherProject = await revokeLinkForm(other.session, other.projectId, link.link_id);
    expect(throughOtherProject.headers.get("location")).toContain("error=not_found");
    const crossSite = await revokeLinkForm(client.session, client.projectId, link.link_id, { origin: "null" });
    expect(crossSite.headers.get("location")).toContain("error=cross_site_request");
    expect((await prisma.projectLink.findUniqueOrThrow({ where: { id: link.link_id } })).revokedAt).toBeNull();
    expect((await getProject(client.projectId, { authorization: link.bearer })).status).toBe(200);

    const revoked = await revokeLinkForm(client.session, client.projectId, link.link_id);
    expect(revoked.headers.get("location")).toBe(`https://initlink.test/projects/${client.projectId}?revoked=${link.link_id}`);
    expect((await getProject(client.projectId, { authorization: link.bearer })).status).toBe(401);
    // Revoking again changes nothing and is not an error.
    const again = await revokeLinkForm(client.session, client.projectId, link.link_id);
    expect(again.headers.get("location")).toBe(`https://initlink.test/projects/${client.projectId}?revoked=${link.link_id}`);
  });
});

describe("ids that are not ours", () => {
  it("name nothing on either provider: a NUL, a path or a huge id is a not-found, never a 500", async () => {
    const client = await approvedClient();
    const before = await linkSnapshot();
    for (const id of ["a\u0000b", "../x", "x".repeat(5000), ""]) {
      expect((await revokeTokenForm(client.session, id)).headers.get("location")).toContain("error=not_found");
      expect((await revokeLinkForm(client.session, client.projectId, id)).headers.get("location")).toContain("error=not_found");
      expect((await revokeLinkForm(client.session, id, id)).headers.get("location")).toContain("error=not_found");
      const token = await createTokenForm(client.session, { ...NEW_TOKEN, scope: id || "\u0000" });
      // Over the field's length limit it is a 400; otherwise no project has that id.
      expect(token.status).toBe(id.length > 100 ? 400 : 404);
    }
    expect(await linkSnapshot()).toEqual(before);
  });
});
