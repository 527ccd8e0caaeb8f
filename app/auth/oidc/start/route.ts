import { oidcFlowCookie } from "@/lib/api/oidc-cookie";
import { startOidcSignInOperation } from "@/lib/api/operations/oidc";
import { safeReturnTo } from "@/lib/api/return-to";
import { route } from "@/lib/api/route";
import { startFlow } from "@/lib/identity/flow";

export const GET = route(startOidcSignInOperation, async ({ cfg, query }) => {
  const started = await startFlow(cfg, { purpose: "sign_in", returnTo: safeReturnTo(query.get("returnTo")) });
  return { to: started.authorizationUrl, cookies: [oidcFlowCookie(cfg, started.sealed)] };
});
