import { z } from "zod";
import { operation } from "../operation";

// GET /api/openapi.json — the OpenAPI 3.1 document of this API (rendered at /docs). It changes
// only with a new build: caches may keep it a while.

const CACHE_CONTROL = "public, max-age=300";

export const getOpenApiDocumentOperation = operation({
  method: "GET",
  route: "/api/openapi.json",
  auth: "none",
  answer: { status: 200, headers: () => ({ "Cache-Control": CACHE_CONTROL }) },
  errors: [],
  database: false,
  doc: {
    operationId: "getOpenApiDocument",
    summary: "This document",
    description: "The OpenAPI 3.1 document of this API, generated from the schemas the routes validate with. Rendered at /docs.",
    tag: "Service",
    answers: [
      {
        status: 200,
        description: "The document.",
        json: { name: "OpenApiDocument", schema: z.looseObject({ openapi: z.string(), info: z.looseObject({ title: z.string() }), paths: z.record(z.string(), z.unknown()) }) },
        headers: { "Cache-Control": { description: "The same for the life of the process: cacheable.", schema: { type: "string" }, example: CACHE_CONTROL } },
      },
    ],
  },
});
