import { clearedOidcFlowCookie, oidcFlowFromHeaders } from "@/lib/api/oidc-cookie";
import { oidcCallbackOperation } from "@/lib/api/operations/oidc";
import { route } from "@/lib/api/route";
import { finishFlow } from "@/lib/identity/callback";

export const GET = route(oidcCallbackOperation, async ({ cfg, query, headers, origin, sessionToken }) => {
  const finished = await finishFlow(cfg, oidcFlowFromHeaders(cfg, headers), query, origin, sessionToken);
  const cookies = [clearedOidcFlowCookie(cfg)];
  return finished.purpose === "sign_in" ? { to: finished.returnTo, session: finished.session, cookies } : { to: "/settings/identity?linked=1", cookies };
});
