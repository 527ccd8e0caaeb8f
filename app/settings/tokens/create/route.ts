import { createAccessTokenOperation } from "@/lib/api/operations/create-access-token";
import { route } from "@/lib/api/route";
import { createAccessToken } from "@/lib/access-tokens/issue-access-token";

export const POST = route(createAccessTokenOperation, ({ auth: user, body }) => createAccessToken(user.id, body));
