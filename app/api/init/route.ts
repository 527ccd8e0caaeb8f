import { config } from "@/lib/config";
import { readJsonBody } from "@/lib/http/body";
import { apiRoute } from "@/lib/http/handler";
import { requestOrigin } from "@/lib/http/origin";
import { jsonResponse } from "@/lib/http/response";
import { parseInput } from "@/lib/http/validate";
import { createInit } from "@/lib/init/create";
import { createInitBodySchema } from "@/lib/init/schemas";

// POST /api/init — Create Init
export const POST = apiRoute(async (request) => {
  const cfg = config();
  const body = parseInput(createInitBodySchema, await readJsonBody(request));
  const init = await createInit(cfg, body, requestOrigin(cfg, request));
  return jsonResponse(201, init, { Location: init.url });
});
