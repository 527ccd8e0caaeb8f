import { renameProjectOperation } from "@/lib/api/operations/rename-project";
import { route } from "@/lib/api/route";
import { renameProject } from "@/lib/projects/rename-project";

export const POST = route(renameProjectOperation, async ({ auth: user, params, body }) => ({
  to: `/projects/${encodeURIComponent(await renameProject(user.id, params.id, body.name))}?renamed=1`,
}));
