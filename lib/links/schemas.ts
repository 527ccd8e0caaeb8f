import { z } from "zod";

// Existing clients send 16 random bytes as 32 hexadecimal characters.
const ivSchema = z
  .string()
  .regex(/^[0-9a-fA-F]{32,128}$/, { error: "must be 32 to 128 hexadecimal characters" })
  .transform((iv) => iv.toLowerCase());

export const createLinkParamsSchema = z.object({ projectId: z.string(), iv: ivSchema });

export const projectParamsSchema = z.object({ projectId: z.string() });

export const revokeLinkParamsSchema = z.object({ id: z.string(), linkId: z.string() });

/** The browser approval of a link (docs/api.md, Compatibility): /projects/{id}/link/{iv}. */
export const linkApprovalParamsSchema = z.object({ id: z.string(), iv: ivSchema });

export const isLinkIv = (value: string) => ivSchema.safeParse(value).success;

// Answer schemas of the link operations: they type the answers and feed the OpenAPI document
// (lib/api/openapi-document.ts), whose test validates the real answers against them.

const EXAMPLE_PEM = "-----BEGIN PUBLIC KEY-----\nMIICIjANBgkqhkiG9w0BAQEFAAOCAg8AMIICCgKCAgEA…\n-----END PUBLIC KEY-----\n";
const EXAMPLE_FINGERPRINT = "SHA256:n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg";
const publicKeyPem = z.string().startsWith("-----BEGIN PUBLIC KEY-----").meta({ description: "The project's RSA-4096 public key, PEM (SPKI)." });
const publicKeyFingerprint = z.string().startsWith("SHA256:").meta({ description: "SHA256: and the unpadded base64 SHA-256 of the key's DER SubjectPublicKeyInfo: compare it with the one the project's page shows." });
const epochMs = (description: string) => z.int().nonnegative().meta({ description: `${description} (milliseconds since the Unix epoch)` });

export const linkAnswerSchema = z
  .object({
    success: z.literal(true),
    bearer: z
      .string()
      .regex(/^Bearer [A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/)
      .meta({
        description:
          "`Bearer ` and a JWT (EdDSA, verifiable with /.well-known/jwks.json) that opens GET /api/projects/{projectId}. Its claims: `iss`, `aud` (this project's URL), `sub` (the link's id), `project_id`, `client_id` (the access token that made the link), `account_id` (the stable id of the account that approved the client: map it to your own user), for an account that signs in through the platform's OpenID Connect provider `account_upstream` (`{iss, sub}`: the provider's issuer and the person's `sub` there), `iat`, `exp`, `jti`.",
      }),
    public: publicKeyPem,
    public_fingerprint: publicKeyFingerprint,
    link_id: z.string(),
    expires_at: epochMs("When the bearer expires"),
  })
  .meta({
    examples: [
      {
        success: true,
        bearer: "Bearer eyJhbGciOiJFZERTQSIsInR5cCI6ImF0K2p3dCJ9.eyJzdWIiOiJleGFtcGxlIn0.c2lnbmF0dXJl",
        public: EXAMPLE_PEM,
        public_fingerprint: EXAMPLE_FINGERPRINT,
        link_id: "TGlua0lkRXhhbXBsZTAwMQ",
        expires_at: 1764086400000,
      },
    ],
  });

export type LinkAnswer = z.infer<typeof linkAnswerSchema>;

export const linkedProjectSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    created_at: epochMs("When the project was created"),
    public: publicKeyPem,
    public_fingerprint: publicKeyFingerprint,
    link: z.object({ id: z.string(), iv: z.string(), created_at: epochMs("When the link was made"), expires_at: epochMs("When the bearer expires") }),
  })
  .meta({
    examples: [
      {
        id: "UHJvamVjdElkRXhhbXBsZQ",
        name: "My app",
        created_at: 1764000030000,
        public: EXAMPLE_PEM,
        public_fingerprint: EXAMPLE_FINGERPRINT,
        link: { id: "TGlua0lkRXhhbXBsZTAwMQ", iv: "8f3a5c0e1b2d4f6a8c0e1b2d4f6a8c0e", created_at: 1764000060000, expires_at: 1764086400000 },
      },
    ],
  });

export type LinkedProject = z.infer<typeof linkedProjectSchema>;

export const jwksSchema = z
  .object({
    keys: z.array(
      z
        .object({
          kty: z.literal("OKP"),
          crv: z.literal("Ed25519"),
          x: z.string().meta({ description: "The public key, base64url." }),
          kid: z.string(),
          alg: z.literal("EdDSA"),
          use: z.literal("sig"),
        })
        .meta({ description: "A public JWK (RFC 7517); never a private member." }),
    ),
  })
  .meta({
    examples: [{ keys: [{ kty: "OKP", crv: "Ed25519", x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo", kid: "S2V5SWRFeGFtcGxlMDAwMQ", alg: "EdDSA", use: "sig" }] }],
  });
