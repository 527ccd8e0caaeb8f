import { z } from "zod";
import { PROJECT_NAME_MAX } from "../field-lengths";
import { requiredText } from "../text";
import { TEAM_ROLES } from "../teams/roles";

export const projectNameSchema = requiredText(PROJECT_NAME_MAX);

/** The project page's Rename form: the new name, as a new project's is checked. */
export const renameProjectSchema = z.object({ name: projectNameSchema });

/** A project of the path, /projects/{id}/…: its id or an alias of it (lib/projects/resolve-project.ts). */
export const projectParamsSchema = z.object({ id: z.string() });

/** GET /api/projects: the projects an access token reaches, and their teams. */
export const tokenProjectsSchema = z
  .object({
    projects: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        created_at: z.int().nonnegative().meta({ description: "When the project was made (milliseconds since the Unix epoch)" }),
        team_id: z.string().nullable().meta({ description: "Its team (docs/teams.md); null for a personal project." }),
      }),
    ),
    teams: z.array(z.object({ id: z.string(), name: z.string(), role: z.enum(TEAM_ROLES).meta({ description: "The token's person's role in the team." }) })),
  })
  .meta({
    examples: [
      {
        projects: [
          { id: "UHJvamVjdElkRXhhbXBsZQ", name: "My app", created_at: 1764000030000, team_id: null },
          { id: "VGVhbVByb2plY3RFeGFtcGw", name: "@acme/cli", created_at: 1764000040000, team_id: "VGVhbUlkRXhhbXBsZTAwMQ" },
        ],
        teams: [{ id: "VGVhbUlkRXhhbXBsZTAwMQ", name: "Acme", role: "member" }],
      },
    ],
  });

export type TokenProjects = z.infer<typeof tokenProjectsSchema>;
