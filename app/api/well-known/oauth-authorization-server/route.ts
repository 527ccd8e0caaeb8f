import { otherMethods } from "@/lib/api/method-not-allowed";
import { getAuthorizationServerMetadataOperation } from "@/lib/api/operations/get-authorization-server-metadata";
import { route } from "@/lib/api/route";
import { authorizationServerMetadata } from "@/lib/oauth/authorization-server-metadata";

export const GET = route(getAuthorizationServerMetadataOperation, async ({ cfg }) => authorizationServerMetadata(cfg));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(getAuthorizationServerMetadataOperation);
