import { otherMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { openApiDocument } from "@/lib/openapi/document";
import { OPENAPI_CACHE_CONTROL } from "@/lib/openapi/operations";

// GET /api/openapi.json — the OpenAPI 3.1 document of this API (rendered at /docs)
export const GET = route({ auth: "none", answer: { status: 200, headers: () => ({ "Cache-Control": OPENAPI_CACHE_CONTROL }) } }, async () => openApiDocument());

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
