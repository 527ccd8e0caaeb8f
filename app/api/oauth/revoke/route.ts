import { otherMethods } from "@/lib/api/method-not-allowed";
import { revokeTokenOperation } from "@/lib/api/operations/revoke-token";
import { route } from "@/lib/api/route";
import { revokeToken } from "@/lib/oauth/token-revocation";

export const POST = route(revokeTokenOperation, (input) => revokeToken(input.cfg, input.body, () => input.origin));

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods(revokeTokenOperation);
