import { otherMethods } from "@/lib/api/method-not-allowed";
import { getProtectedResourceMetadataOperation } from "@/lib/api/operations/get-protected-resource-metadata";
import { route } from "@/lib/api/route";
import { protectedResourceMetadata } from "@/lib/oauth/protected-resource-metadata";

export const GET = route(getProtectedResourceMetadataOperation, async ({ cfg }) => protectedResourceMetadata(cfg));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(getProtectedResourceMetadataOperation);
