import { operation } from "../operation";

// GET /oauth/authorize — RFC 6749 §3.1's authorization endpoint, which a native client opens in
// the browser (RFC 8252): a request that can be answered goes on to its init page, or back to the
// client's loopback redirect URI with an OAuth error (lib/oauth/authorization-request.ts). A
// client_id or redirect_uri that cannot be trusted is shown on this site's page, never redirected
// to (RFC 6749 §4.1.2.1). A top-level navigation from anywhere: no same-origin check, and it
// needs no session (the init page asks for one).
export const authorizeOperation = operation({
  method: "GET",
  route: "/oauth/authorize",
  auth: "none",
  answer: { redirect: true, back: () => "/oauth/refused" },
  errors: ["invalid_client", "invalid_redirect_uri"],
});
