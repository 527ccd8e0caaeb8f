import type { Config } from "../config";
import { AUTHORIZATION_CODE_GRANT, DEVICE_CODE_GRANT, DPOP_ALGORITHMS, REFRESH_TOKEN_GRANT, type AuthorizationServerMetadata } from "./schemas";

// RFC 8414: what an OAuth client discovers at /.well-known/oauth-authorization-server. The
// issuer is APP_URL byte for byte (§3.3: the client compares it with where it looked).

export const authorizationEndpoint = (cfg: Config) => `${cfg.appUrl}/oauth/authorize`;
export const deviceAuthorizationEndpoint = (cfg: Config) => `${cfg.appUrl}/api/oauth/device_authorization`;
export const tokenEndpoint = (cfg: Config) => `${cfg.appUrl}/api/oauth/token`;
export const revocationEndpoint = (cfg: Config) => `${cfg.appUrl}/api/oauth/revoke`;
export const introspectionEndpoint = (cfg: Config) => `${cfg.appUrl}/api/oauth/introspect`;

export function authorizationServerMetadata(cfg: Config): AuthorizationServerMetadata {
  return {
    issuer: cfg.appUrl,
    authorization_endpoint: authorizationEndpoint(cfg),
    device_authorization_endpoint: deviceAuthorizationEndpoint(cfg),
    token_endpoint: tokenEndpoint(cfg),
    revocation_endpoint: revocationEndpoint(cfg),
    introspection_endpoint: introspectionEndpoint(cfg),
    jwks_uri: `${cfg.appUrl}/.well-known/jwks.json`,
    grant_types_supported: [AUTHORIZATION_CODE_GRANT, DEVICE_CODE_GRANT, REFRESH_TOKEN_GRANT],
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    code_challenge_methods_supported: ["S256"],
    authorization_response_iss_parameter_supported: true,
    token_endpoint_auth_methods_supported: ["none"],
    revocation_endpoint_auth_methods_supported: ["none"],
    // RFC 7662 §2.1 leaves the means open: a resource server's credential (a registered method,
    // RFC 6749 §2.3.1), or an access token of the projects it asks about.
    introspection_endpoint_auth_methods_supported: ["client_secret_basic", "bearer"],
    service_documentation: `${cfg.appUrl}/docs`,
    dpop_signing_alg_values_supported: [...DPOP_ALGORITHMS],
  };
}
