import { config } from "@/lib/config";
import { bearerCredential } from "@/lib/http/bearer";
import { ApiError } from "@/lib/http/errors";
import { apiRoute } from "@/lib/http/handler";
import { requestOrigin } from "@/lib/http/origin";
import { jsonResponse } from "@/lib/http/response";
import { pollerKey, readInitStatus } from "@/lib/init/status";

const invalidSecret = () => new ApiError("invalid_secret", "Send the init's secret as Authorization: Bearer <secret>.");

// GET /api/init/{id} — init status, polled by the client (with its secret, to collect the
// access token) and by the init page
export const GET = apiRoute<{ id: string }>(async (request, { id }) => {
  const cfg = config();
  const origin = requestOrigin(cfg, request);
  const secret = bearerCredential(request.headers, invalidSecret);
  const poller = pollerKey(origin.address, origin.userAgent, request.headers.get("authorization"));
  return jsonResponse(200, await readInitStatus(cfg, id, poller, secret));
});
