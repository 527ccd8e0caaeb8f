import { otherMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { readLinkedProject } from "@/lib/links/read-linked-project";
import { projectParamsSchema } from "@/lib/links/schemas";

// GET /api/projects/{projectId} — the project, for a client holding one of its link bearers
export const GET = route({ auth: "linkBearer", params: projectParamsSchema, answer: { status: 200 } }, ({ auth: bearer }) => readLinkedProject(bearer));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
