import { otherMethods } from "@/lib/api/method-not-allowed";
import { tokenOperation } from "@/lib/api/operations/token";
import { route } from "@/lib/api/route";
import { requestToken } from "@/lib/oauth/device-code-grant";

export const POST = route(tokenOperation, (input) => requestToken(input.cfg, input.body, () => input.origin, input.dpop));

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods(tokenOperation);
