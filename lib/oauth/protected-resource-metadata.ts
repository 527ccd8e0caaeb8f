import type { Config } from "../config";
import { DPOP_ALGORITHMS, type ProtectedResourceMetadata } from "./schemas";

// RFC 9728: what a client learns of the project API it was refused by, from the
// `resource_metadata` of the 401's challenge (§5.1) or at the well-known address (§3): which
// authorization server issues the tokens it takes (this one) and how they are sent. The Model
// Context Protocol's clients start their login from it.

export const protectedResourceMetadataUrl = (cfg: Config) => `${cfg.appUrl}/.well-known/oauth-protected-resource`;

export function protectedResourceMetadata(cfg: Config): ProtectedResourceMetadata {
  return {
    resource: cfg.appUrl,
    authorization_servers: [cfg.appUrl],
    bearer_methods_supported: ["header"],
    dpop_signing_alg_values_supported: [...DPOP_ALGORITHMS],
    resource_name: `${cfg.brand.name} project API`,
    resource_documentation: `${cfg.appUrl}/docs`,
  };
}
