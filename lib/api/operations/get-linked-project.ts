import { linkedProjectSchema, projectParamsSchema } from "../../links/schemas";
import { operation } from "../operation";

// GET /api/projects/{projectId} — the project, for a client holding one of its link bearers
export const getLinkedProjectOperation = operation({
  method: "GET",
  route: "/api/projects/[projectId]",
  auth: "linkBearer",
  params: projectParamsSchema,
  answer: { status: 200 },
  errors: ["malformed_path", "unauthorized", "invalid_token", "internal_error"],
  doc: {
    operationId: "getLinkedProject",
    summary: "The project, for a link bearer",
    description:
      "What a link's bearer opens: the project, its public key and the link. Every use reads the link, so revoking the link or the access token that made it takes effect at once. The link's `bearer` may be sent as it was answered (`Authorization: Bearer Bearer <JWT>`).",
    tag: "Project links",
    paramDescriptions: { projectId: "The project's id; it must be the bearer's." },
    answers: [{ status: 200, description: "The project.", json: { name: "LinkedProject", schema: linkedProjectSchema } }],
  },
});
