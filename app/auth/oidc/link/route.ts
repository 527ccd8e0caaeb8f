import { oidcFlowCookie } from "@/lib/api/oidc-cookie";
import { startOidcLinkOperation } from "@/lib/api/operations/oidc";
import { route } from "@/lib/api/route";
import { startFlow } from "@/lib/identity/flow";

export const GET = route(startOidcLinkOperation, async ({ cfg, auth: user }) => {
  const started = await startFlow(cfg, { purpose: "link", userId: user.id, sessionId: user.sessionId });
  return { to: started.authorizationUrl, cookies: [oidcFlowCookie(cfg, started.sealed)] };
});
