import { otherMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { OPENAPI_CACHE_CONTROL, openApiDocument } from "@/lib/openapi/document";

// GET /api/openapi.json — the OpenAPI 3.1 document of this API (rendered at /docs)
export const GET = route({ auth: "none", answer: { status: 200, headers: () => ({ "Cache-Control": OPENAPI_CACHE_CONTROL }) } }, async () => openApiDocument());

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
