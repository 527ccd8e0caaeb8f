import { config } from "@/lib/config";
import { apiRoute } from "@/lib/http/handler";
import { requestOrigin } from "@/lib/http/origin";
import { jsonResponse } from "@/lib/http/response";
import { pollerKey, readInitStatus } from "@/lib/init/status";

// GET /api/init/{id} — init status, polled by the client and by the init page
export const GET = apiRoute<{ id: string }>(async (request, { id }) => {
  const origin = requestOrigin(config(), request);
  const poller = pollerKey(origin.address, origin.userAgent, request.headers.get("authorization"));
  return jsonResponse(200, await readInitStatus(id, poller));
});
