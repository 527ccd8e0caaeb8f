import { authorizingBrowserCookie } from "@/lib/api/authorizing-browser-cookie";
import { authorizeOperation } from "@/lib/api/operations/authorize";
import { route } from "@/lib/api/route";
import { authorize } from "@/lib/oauth/authorization-request";

export const GET = route(authorizeOperation, async ({ cfg, query, origin }) => {
  const { to, initId } = await authorize(cfg, query, origin);
  return { to, cookies: initId === null ? [] : [authorizingBrowserCookie(cfg, initId)] };
});
