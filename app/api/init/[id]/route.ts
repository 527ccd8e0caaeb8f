import { otherMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { readInitStatus } from "@/lib/init/read-init-status";
import { initIdParamsSchema } from "@/lib/init/schemas";

// GET /api/init/{id} — init status, polled by the client (with its secret, to collect the
// access token) and by the init page; `Prefer: wait=<seconds>` holds it until the status changes
export const GET = route(
  { auth: "initSecret", params: initIdParamsSchema, wait: true, answer: { status: 200 } },
  ({ cfg, auth: secret, params, origin, wait, signal }) => readInitStatus(cfg, params.id, secret, origin, { seconds: wait, signal }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
