import { otherMethods } from "@/lib/api/method-not-allowed";
import { introspectTokenOperation } from "@/lib/api/operations/introspect-token";
import { route } from "@/lib/api/route";
import { introspectToken } from "@/lib/oauth/token-introspection";

export const POST = route(introspectTokenOperation, ({ cfg, auth, body }) => introspectToken(cfg, auth, body));

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods(introspectTokenOperation);
