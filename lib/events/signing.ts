import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { seal, unseal } from "../crypto/sealed";

// Endpoint secrets and signatures, as Standard Webhooks defines them (its library signs): a
// secret is "whsec_" and 24 to 64 random bytes in base64; the signature header lists one
// "v1,<base64 HMAC-SHA256>" per secret that signs, separated by spaces, so that during a
// rotation's overlap a receiver holding either secret verifies.

const SECRET_BYTES = 32;

export const newEndpointSecret = (): string => `whsec_${randomBytes(SECRET_BYTES).toString("base64")}`;

/** The secret sealed under the master key for the endpoint `endpointId` only (lib/crypto/sealed.ts). */
export const sealEndpointSecret = (masterKey: Buffer, endpointId: string, secret: string): string => seal(masterKey, Buffer.from(secret), `webhook-endpoint:${endpointId}`);

export const unsealEndpointSecret = (masterKey: Buffer, endpointId: string, sealed: string): string => unseal(masterKey, sealed, `webhook-endpoint:${endpointId}`).toString();

/** The Standard Webhooks headers of one attempt at sending `body` as message `messageId`, signed with each of `secrets`. */
export function signedHeaders(secrets: readonly string[], messageId: string, at: Date, body: string): Record<string, string> {
  return {
    "content-type": "application/json",
    "webhook-id": messageId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": secrets.map((secret) => new Webhook(secret).sign(messageId, at, body)).join(" "),
  };
}
