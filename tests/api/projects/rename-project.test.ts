import { describe, expect, it } from "vitest";
import { db } from "@/lib/database/db";
import { PROJECT_NAME_MAX } from "@/lib/field-lengths";
import { renameProjectForm, SITE } from "../../helpers/forms";
import { changedTables, databaseFingerprint } from "../../helpers/hostile";
import { signedInPersonWithProjects } from "../../helpers/hostile-forms";

// POST /projects/{id}/rename: the project page's Rename form, through the real route handler and
// database. Only the owner renames, and only the name changes.

const location = (response: Response) => response.headers.get("location");
const nameOf = async (id: string) => (await (await db()).project.findUniqueOrThrow({ where: { id } })).name;

describe("renaming a project", () => {
  it("renames the owner's project and keeps everything else", async () => {
    const person = await signedInPersonWithProjects();
    const prisma = await db();
    const before = await prisma.project.findUniqueOrThrow({ where: { id: person.ownProject } });
    expect(location(await renameProjectForm(person.session, person.ownProject, { name: "  Deploy keys  " }))).toBe(`${SITE}/projects/${person.ownProject}?renamed=1`);
    expect(await prisma.project.findUniqueOrThrow({ where: { id: person.ownProject } })).toEqual({ ...before, name: "Deploy keys" });
  });

  it("refuses someone else's project, an unknown one, a bad name and another site, writing nothing", async () => {
    const person = await signedInPersonWithProjects();
    const before = await databaseFingerprint();
    expect(location(await renameProjectForm(person.session, person.othersProject, { name: "Mine now" }))).toBe(`${SITE}/projects/${person.othersProject}?error=not_found`);
    expect(location(await renameProjectForm(person.session, "no-such-project", { name: "Ghost" }))).toBe(`${SITE}/projects/no-such-project?error=not_found`);
    for (const name of ["", "   ", "n".repeat(PROJECT_NAME_MAX + 1)]) {
      expect(location(await renameProjectForm(person.session, person.ownProject, { name }))).toBe(`${SITE}/projects/${person.ownProject}?error=invalid_request`);
    }
    expect(location(await renameProjectForm(person.session, person.ownProject, { name: "Forged" }, { origin: "https://evil.example" }))).toBe(
      `${SITE}/projects/${person.ownProject}?error=cross_site_request`,
    );
    expect(changedTables(before, await databaseFingerprint())).toEqual([]);
    expect(await nameOf(person.othersProject)).toBe("Theirs");
    expect(await nameOf(person.ownProject)).toBe("Mine");
  });
});
