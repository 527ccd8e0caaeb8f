import { otherMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { openInitEventStream } from "@/lib/init/init-event-stream";
import { initIdParamsSchema } from "@/lib/init/schemas";

// GET /api/init/{id}/events — the init's status as Server-Sent Events, for the init page
export const GET = route({ auth: "none", params: initIdParamsSchema, answer: { stream: true } }, ({ cfg, params, headers, signal }) =>
  openInitEventStream(cfg, params.id, headers.get("last-event-id"), signal),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
