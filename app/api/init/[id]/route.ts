import { route } from "@/lib/http/route";
import { readInitStatus } from "@/lib/init/read-init-status";
import { initIdParamsSchema } from "@/lib/init/schemas";

// GET /api/init/{id} — init status, polled by the client (with its secret, to collect the
// access token) and by the init page
export const GET = route(
  { auth: "initSecret", params: initIdParamsSchema, answer: { status: 200 } },
  ({ cfg, auth: secret, params }) => readInitStatus(cfg, params.id, secret),
);
