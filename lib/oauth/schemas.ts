import { z } from "zod";
import { BINDING_MESSAGE_MAX, SENDER_MAX } from "../field-lengths";
import { optionalText, requiredText } from "../text";
import { REDIRECT_URI_MAX } from "./redirect-uri";

// Request and answer schemas of the OAuth endpoints (docs/oauth.md). Requests are form fields
// (RFC 6749 §3.2, RFC 8628 §3.1), read by OAuth's rules (lib/api/body.ts); answers are JSON.

/** RFC 8628 §3.4's grant type. */
export const DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
/** RFC 6749 §6's. */
export const REFRESH_TOKEN_GRANT = "refresh_token";
/** RFC 6749 §4.1.3's. */
export const AUTHORIZATION_CODE_GRANT = "authorization_code";

/** RFC 9449 §4.2: the DPoP proofs' algorithms, asymmetric only (`none` and MACs prove no private key). */
export const DPOP_ALGORITHMS = ["ES256", "ES384", "EdDSA", "Ed25519", "PS256", "RS256"] as const;

// The client_id is what the init page shows as the application, as Create Init's sender.
const clientId = requiredText(SENDER_MAX);

const form = <S extends z.ZodRawShape>(shape: S) => z.object(shape, { error: "The body must be form fields." });

/** RFC 8628 §3.1. */
export const deviceAuthorizationBodySchema = form({
  client_id: clientId,
  // Scopes are not used: the person chooses the project, and the token reaches that project.
  scope: z.string().max(1000).optional(),
  binding_message: optionalText(BINDING_MESSAGE_MAX),
});

export type DeviceAuthorizationBody = z.infer<typeof deviceAuthorizationBodySchema>;

/**
 * RFC 6749 §4.1.3 / RFC 8628 §3.4: `grant_type` decides which other parameters are needed, so
 * each is optional here and the grant checks its own (an unknown grant type is
 * unsupported_grant_type, not invalid_request).
 */
export const tokenBodySchema = form({
  grant_type: z.string({ error: "is required" }).max(200),
  device_code: z.string().max(200).optional(),
  refresh_token: z.string().max(200).optional(),
  client_id: z.string().max(SENDER_MAX * 4).optional(),
  // RFC 6749 §4.1.3 and RFC 7636 §4.5; the verifier's form is the grant's check (invalid_grant).
  code: z.string().max(200).optional(),
  redirect_uri: z.string().max(REDIRECT_URI_MAX).optional(),
  code_verifier: z.string().max(200).optional(),
});

export type TokenBody = z.infer<typeof tokenBodySchema>;

const seconds = (description: string) => z.int().positive().meta({ description: `${description}, in seconds` });

export const deviceAuthorizationAnswerSchema = z
  .object({
    device_code: z.string().meta({ description: "Secret: the client sends it to the token endpoint. The same as Create Init's `secret`." }),
    user_code: z.string().meta({ description: "The code the client shows the person (RFC 8628 §6.1 alphabet), for them to type." }),
    verification_uri: z.url().meta({ description: "Where the person types the code." }),
    verification_uri_complete: z.url().meta({ description: "The request's own page (the init page): the person still types the code there." }),
    expires_in: seconds("How long the device code may be exchanged"),
    interval: seconds("The least time between two token requests"),
  })
  .meta({
    examples: [
      {
        device_code: "ilsec_AudKZwucI6wsqZhncOHqAlRHpNFbChlRx9Cx4zXg4jE",
        user_code: "XWLL-VHQG",
        verification_uri: "https://initlink.example/device",
        verification_uri_complete: "https://initlink.example/init/f0hzLD1VaTUHWk7oIoQhpg",
        expires_in: 900,
        interval: 5,
      },
    ],
  });

export type DeviceAuthorizationAnswer = z.infer<typeof deviceAuthorizationAnswerSchema>;

export const tokenAnswerSchema = z
  .object({
    access_token: z.string().startsWith("ilat_").meta({ description: "The access token for the approved project (Create Project Link)." }),
    token_type: z.enum(["Bearer", "DPoP"]).meta({ description: "`DPoP` when the token request carried a DPoP proof (RFC 9449 §5): the token is bound to its key." }),
    expires_in: seconds("How long the access token lives"),
    refresh_token: z
      .string()
      .startsWith("ilrt_")
      .meta({ description: "For `grant_type=refresh_token` (RFC 6749 §6): once, for the next access token and refresh token. A second use revokes the whole login." }),
    project_id: z.string().meta({ description: "The project the person chose (an additional parameter, RFC 6749 §5.1)." }),
    project_url: z.url().meta({ description: "The project's page." }),
    team_id: z.string().optional().meta({ description: "The team the project belongs to (docs/teams.md); absent for a personal project." }),
  })
  .meta({
    examples: [
      {
        access_token: "ilat_AudKZwucI6wsqZhncOHqAlRHpNFbChlRx9Cx4zXg4jE",
        token_type: "Bearer",
        expires_in: 7776000,
        refresh_token: "ilrt_x3LkQ0pV9sTqzN2bWm8cYdE1fGhJkL4nOpRsTuVwXyZ",
        project_id: "f0hzLD1VaTUHWk7oIoQhpg",
        project_url: "https://initlink.example/projects/f0hzLD1VaTUHWk7oIoQhpg",
      },
    ],
  });

export type TokenAnswer = z.infer<typeof tokenAnswerSchema>;

export const authorizationServerMetadataSchema = z
  .object({
    issuer: z.url().meta({ description: "`APP_URL`, exactly: clients compare it with the address they discovered it at." }),
    authorization_endpoint: z.url().meta({ description: "RFC 6749 §3.1: for a native client's browser, answered on a loopback redirect URI (RFC 8252 §7.3)." }),
    device_authorization_endpoint: z.url(),
    token_endpoint: z.url(),
    revocation_endpoint: z.url().meta({ description: "RFC 7009." }),
    introspection_endpoint: z.url().meta({ description: "RFC 7662." }),
    jwks_uri: z.url(),
    grant_types_supported: z.array(z.string()),
    response_types_supported: z.array(z.literal("code")),
    response_modes_supported: z.array(z.literal("query")),
    code_challenge_methods_supported: z.array(z.literal("S256")).meta({ description: "RFC 7636: PKCE is required, S256 only." }),
    authorization_response_iss_parameter_supported: z.literal(true).meta({ description: "RFC 9207: every authorization response carries `iss`." }),
    token_endpoint_auth_methods_supported: z.array(z.literal("none")).meta({ description: "Public clients: `client_id` only." }),
    revocation_endpoint_auth_methods_supported: z.array(z.literal("none")).meta({ description: "Public clients: `client_id` only." }),
    introspection_endpoint_auth_methods_supported: z.array(z.enum(["client_secret_basic", "bearer"])).meta({
      description:
        "`client_secret_basic`: a resource-server credential the project's owner made on /settings/resource-servers (RFC 6749 §2.3.1). `bearer`: `Authorization: Bearer <access token>`, an access token the owner made on /settings/tokens (not a registered client authentication method).",
    }),
    service_documentation: z.url(),
    dpop_signing_alg_values_supported: z.array(z.enum(DPOP_ALGORITHMS)).meta({ description: "RFC 9449 §5.1: the algorithms a DPoP proof may be signed with." }),
  })
  .meta({ description: "RFC 8414 §2." });

export type AuthorizationServerMetadata = z.infer<typeof authorizationServerMetadataSchema>;

export const protectedResourceMetadataSchema = z
  .object({
    resource: z.url().meta({ description: "The resource's identifier: `APP_URL`, whose project API (`/api/projects/…`) takes the access tokens." }),
    authorization_servers: z.array(z.url()).meta({ description: "The issuer whose tokens it takes: this service (`APP_URL`), whose RFC 8414 metadata says the rest." }),
    bearer_methods_supported: z.array(z.literal("header")).meta({ description: "`Authorization: Bearer` (or `DPoP` for a bound token) only (RFC 6750 §2.1)." }),
    dpop_signing_alg_values_supported: z.array(z.enum(DPOP_ALGORITHMS)),
    resource_name: z.string().meta({ description: "`APP_NAME`'s project API." }),
    resource_documentation: z.url(),
  })
  .meta({ description: "RFC 9728 §2." });

export type ProtectedResourceMetadata = z.infer<typeof protectedResourceMetadataSchema>;

/** RFC 7009 §2.1. `token_type_hint` is read as a hint only: the token's prefix says what it is. */
export const revocationBodySchema = form({
  token: requiredText(4000),
  token_type_hint: z.string().max(200).optional(),
  client_id: clientId,
});

export type RevocationBody = z.infer<typeof revocationBodySchema>;

/** RFC 7662 §2.1. */
export const introspectionBodySchema = form({
  token: requiredText(4000),
  token_type_hint: z.string().max(200).optional(),
});

export type IntrospectionBody = z.infer<typeof introspectionBodySchema>;

export const revocationAnswerSchema = z.object({}).meta({ description: "RFC 7009 §2.2: nothing to read; the status says it all." });

const epochSeconds = (description: string) => z.int().positive().meta({ description: `${description}, in seconds since 1970 (RFC 7662 §2.2)` });

export const introspectionAnswerSchema = z
  .object({
    active: z.boolean().meta({ description: "Whether the token is usable now. `false` for anything else, and for a token of a project the caller's credential does not cover: nothing else is said then." }),
    token_type: z
      .enum(["Bearer", "DPoP", "refresh_token"])
      .optional()
      .meta({ description: "`Bearer` (or `DPoP` when bound to a key) for an access token or a link bearer; `refresh_token` for a refresh token, which is no access token." }),
    client_id: z.string().optional().meta({ description: "The OAuth client it was issued to; for a link bearer, its `client_id` claim (the id of the access token that made the link)." }),
    sub: z.string().optional().meta({ description: "The account that approved it; for a link bearer, the link's id (its `sub`)." }),
    account_id: z
      .string()
      .optional()
      .meta({
        description:
          "The initlink account that approved it (or made the access token on /settings/tokens), whatever the token: its stable, random id, for the platform to map the login to its own user. For a link bearer, the account of the access token that made the link (its `account_id` claim).",
      }),
    account_upstream: z
      .object({ iss: z.url(), sub: z.string() })
      .optional()
      .meta({
        description:
          "That account at the platform's OpenID Connect provider (`OIDC_ISSUER`): the provider's issuer and the person's `sub` there, read at the time of the answer. Absent for an account without an identity there (a local account).",
      }),
    project_id: z.string().optional().meta({ description: "The one project it reaches; absent for an access token made for all of its owner's projects." }),
    team_id: z.string().optional().meta({ description: "The team that project belongs to (docs/teams.md); absent for a personal project." }),
    iat: epochSeconds("When it was issued").optional(),
    exp: epochSeconds("When it expires").optional(),
    iss: z.url().optional(),
    cnf: z
      .object({ jkt: z.string() })
      .optional()
      .meta({ description: "RFC 9449 §6.2: the thumbprint of the DPoP key it is bound to, when it is." }),
  })
  .meta({
    examples: [
      { active: true, token_type: "Bearer", client_id: "@acme/cli", sub: "u1hzLD1VaTUHWk7oIoQhpg", account_id: "u1hzLD1VaTUHWk7oIoQhpg", project_id: "f0hzLD1VaTUHWk7oIoQhpg", iat: 1764040000, exp: 1771816000, iss: "https://initlink.example" },
      { active: false },
    ],
  });

export type IntrospectionAnswer = z.infer<typeof introspectionAnswerSchema>;
