import { otherMethods } from "@/lib/api/method-not-allowed";
import { openApiDocument } from "@/lib/api/openapi-document";
import { getOpenApiDocumentOperation } from "@/lib/api/operations/get-openapi-document";
import { route } from "@/lib/api/route";

export const GET = route(getOpenApiDocumentOperation, async () => openApiDocument());

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(getOpenApiDocumentOperation);
