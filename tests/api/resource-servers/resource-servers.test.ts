import { describe, expect, it } from "vitest";
import { listActivity } from "@/lib/activity/list-activity";
import { db } from "@/lib/database/db";
import { listResourceServers } from "@/lib/resource-servers/manage-resource-servers";
import { RESOURCE_SERVER_PROJECTS_MAX } from "@/lib/resource-servers/schemas";
import { hashSecret, randomId } from "@/lib/secrets";
import { createResourceServerForm, revokeResourceServerForm } from "../../helpers/forms";
import { databaseFingerprint } from "../../helpers/hostile";
import { signedInPersonWithProjects } from "../../helpers/hostile-forms";

// Resource-server credentials on /settings/resource-servers (lib/resource-servers/manage-resource-servers.ts),
// through their form routes. What a credential may introspect: tests/api/oauth/introspection.test.ts.

const SETTINGS = "https://initlink.test/settings/resource-servers";

describe("creating a resource-server credential on the settings page", () => {
  it("answers the client_id and the secret once, as JSON, stores only the secret's hash, and records it in the activity", async () => {
    const person = await signedInPersonWithProjects();
    const prisma = await db();
    const second = randomId();
    await prisma.project.create({ data: { id: second, name: "Another", ownerId: person.userId, createdAt: new Date() } });
    // A project named twice counts once.
    const response = await createResourceServerForm(person.session, { name: "payments API", projects: `${person.ownProject} ${second}  ${second}` });
    expect(response.status).toBe(201);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await response.json();
    expect(body).toEqual({
      client_id: expect.stringMatching(/^ilrs_[A-Za-z0-9_-]{22}$/),
      client_secret: expect.stringMatching(/^ilrss_[A-Za-z0-9_-]{43}$/),
      name: "payments API",
      projects: [
        { id: second, name: "Another" },
        { id: person.ownProject, name: "Mine" },
      ],
    });
    const stored = await prisma.resourceServerCredential.findUniqueOrThrow({ where: { id: body.client_id }, include: { projects: true } });
    expect(stored).toMatchObject({ secretHash: hashSecret(body.client_secret), userId: person.userId, name: "payments API", lastUsedAt: null, revokedAt: null });
    expect(stored.projects.map((scope) => scope.projectId).sort()).toEqual([person.ownProject, second].sort());
    expect(JSON.stringify(stored)).not.toContain(body.client_secret);
    const [listed] = await listResourceServers(person.userId);
    expect(listed).toMatchObject({ id: body.client_id, name: "payments API", projects: [{ name: "Another" }, { name: "Mine" }], lastUsedAt: null, revokedAt: null });
    const activity = await listActivity(person.userId, undefined);
    expect(activity.entries).toMatchObject([{ kind: "resource_server_created", subjectId: body.client_id, tokenName: "payments API", decidedBy: person.email }]);
  });

  it.each([
    ["from another site", { name: "api", projects: "OWN" }, { origin: "https://evil.example" }, 403, "cross_site_request"],
    ["without a name", { name: " ", projects: "OWN" }, {}, 400, "invalid_request"],
    ["with a control character in the name", { name: "a\u202eb", projects: "OWN" }, {}, 400, "invalid_request"],
    ["without projects", { name: "api" }, {}, 400, "invalid_request"],
    ["with no project named", { name: "api", projects: "   " }, {}, 400, "invalid_request"],
    ["for a text that is no project id", { name: "api", projects: "OWN ../x" }, {}, 400, "invalid_request"],
    ["for more projects than a credential may check", { name: "api", projects: Array.from({ length: RESOURCE_SERVER_PROJECTS_MAX + 1 }, (_, at) => `${"A".repeat(18)}${String(at).padStart(4, "0")}`).join(" ") }, {}, 400, "invalid_request"],
    ["for another person's project beside their own", { name: "api", projects: "OWN THEIRS" }, {}, 404, "not_found"],
    ["signed out", { name: "api", projects: "OWN" }, { cookie: "initlink_session=none" }, 401, "unauthorized"],
  ])("refuses a credential %s, writing nothing", async (_case, fields: Record<string, string>, headers: Record<string, string>, status, code) => {
    const person = await signedInPersonWithProjects();
    const named = Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, value.replace("OWN", person.ownProject).replace("THEIRS", person.othersProject)]));
    const before = await databaseFingerprint();
    const response = await createResourceServerForm(person.session, named, headers);
    expect(response.status).toBe(status);
    expect(await response.json()).toMatchObject({ code, error: expect.any(String) });
    expect(await databaseFingerprint()).toEqual(before);
  });
});

describe("revoking a resource-server credential", () => {
  it("marks it revoked once, in the activity too, and only its owner can", async () => {
    const person = await signedInPersonWithProjects();
    const stranger = await signedInPersonWithProjects();
    const { client_id: id } = await (await createResourceServerForm(person.session, { name: "api", projects: person.ownProject })).json();
    const prisma = await db();

    const before = await databaseFingerprint();
    expect((await revokeResourceServerForm(stranger.session, id)).headers.get("location")).toBe(`${SETTINGS}?error=not_found`);
    expect((await revokeResourceServerForm(person.session, id, { origin: "https://evil.example" })).headers.get("location")).toBe(`${SETTINGS}?error=cross_site_request`);
    for (const other of ["ilrs_AAAAAAAAAAAAAAAAAAAAAA", "a\u0000b", "../x", "x".repeat(5000)]) {
      expect((await revokeResourceServerForm(person.session, other)).headers.get("location")).toBe(`${SETTINGS}?error=not_found`);
    }
    expect(await databaseFingerprint()).toEqual(before);

    const revoked = await revokeResourceServerForm(person.session, id);
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get("location")).toBe(`${SETTINGS}?revoked=${id}`);
    const { revokedAt } = await prisma.resourceServerCredential.findUniqueOrThrow({ where: { id } });
    expect(revokedAt).not.toBeNull();
    // Revoking again changes nothing and is not an error.
    expect((await revokeResourceServerForm(person.session, id)).headers.get("location")).toBe(`${SETTINGS}?revoked=${id}`);
    expect((await prisma.resourceServerCredential.findUniqueOrThrow({ where: { id } })).revokedAt).toEqual(revokedAt);
    const kinds = (await listActivity(person.userId, undefined)).entries.map((entry) => entry.kind);
    expect(kinds).toEqual(["resource_server_revoked", "resource_server_created"]);
  });
});
