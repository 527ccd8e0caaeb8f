import { otherMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { readInitStatus } from "@/lib/init/read-init-status";
import { initIdParamsSchema } from "@/lib/init/schemas";

// GET /api/init/{id} — init status, polled by the client (with its secret, to collect the
// access token) and by the init page; `Prefer: wait=<seconds>` holds it until the status changes
export const GET = route(
  { auth: "initSecret", params: initIdParamsSchema, wait: true, answer: { status: 200 } },
  (input) => readInitStatus(input.cfg, input.params.id, input.auth, () => input.origin, { seconds: input.wait, signal: input.signal }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
