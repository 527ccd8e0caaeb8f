import { authorizeOperation } from "@/lib/api/operations/authorize";
import { route } from "@/lib/api/route";
import { authorize } from "@/lib/oauth/authorization-request";

export const GET = route(authorizeOperation, async ({ cfg, query, origin }) => ({ to: await authorize(cfg, query, origin) }));
