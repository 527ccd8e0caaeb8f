import { authorizeOperation } from "@/lib/api/operations/authorize";
import { route } from "@/lib/api/route";
import { authorize } from "@/lib/oauth/authorization-request";

export const GET = route(authorizeOperation, ({ cfg, query, origin }) => authorize(cfg, query, origin));
