import { z } from "zod";
import { PROJECT_NAME_MAX } from "../field-lengths";
import { requiredText } from "../text";

export const projectNameSchema = requiredText(PROJECT_NAME_MAX);

/** The project page's Rename form: the new name, as a new project's is checked. */
export const renameProjectSchema = z.object({ name: projectNameSchema });

/** A project of the path, /projects/{id}/…: its id or an alias of it (lib/projects/resolve-project.ts). */
export const projectParamsSchema = z.object({ id: z.string() });
