import { otherMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { createInit, type CreatedInit } from "@/lib/init/create-init";
import { createInitBodySchema } from "@/lib/init/schemas";

// POST /api/init — Create Init
export const POST = route(
  { auth: "none", body: { json: createInitBodySchema }, answer: { status: 201, headers: (init: CreatedInit) => ({ Location: init.url }) } },
  ({ cfg, body, origin }) => createInit(cfg, body, origin),
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
