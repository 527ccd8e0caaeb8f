import type { Config } from "../config";
import { createInit } from "../init/create-init";
import { assertClientIdAccepted } from "./client-ids";
import type { RequestOrigin } from "../request-origin";
import { acceptDpopProof, readDpopProof, type DpopRequest } from "./dpop";
import type { DeviceAuthorizationAnswer, DeviceAuthorizationBody } from "./schemas";

// RFC 8628 §3.1–3.2: a device authorization is Create Init in OAuth's words. The client_id is
// the init's sender (what the page shows as the application); the device code is the init's
// secret, kept only as its hash; the client shows the user code, so the page asks the person
// to type it (user_code_shown). Limits, expiry and the page are Create Init's, unchanged. With
// OAUTH_CLIENT_IDS set, another client_id is invalid_client (lib/oauth/client-ids.ts). A request
// with a DPoP proof binds the init to its key (RFC 9449; as §10's dpop_jkt binds a code): the
// device code then yields a token only to a proof of that key.

export const verificationUri = (cfg: Config) => `${cfg.appUrl}/device`;

const toSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

export async function authorizeDevice(cfg: Config, body: DeviceAuthorizationBody, origin: RequestOrigin, dpop: DpopRequest): Promise<DeviceAuthorizationAnswer> {
  // RFC 6749 §5.2: refused before anything is counted or written (the proof's jti included).
  assertClientIdAccepted(cfg, body.client_id);
  // RFC 9449 §4.3: the proof read before the limit, so a malformed one counts for nothing; its
  // signature checked and its jti stored after it, so a refused request costs neither.
  const proof = dpop.proof === null ? null : await readDpopProof(cfg, dpop);
  const boundKey = async () => (proof === null ? null : acceptDpopProof(proof));
  const init = await createInit(cfg, { sender: body.client_id, sender_device: null, sender_os: null, sender_ip: null, binding_message: body.binding_message, user_code_shown: true }, origin, boundKey);
  return {
    device_code: init.secret,
    user_code: init.user_code,
    verification_uri: verificationUri(cfg),
    verification_uri_complete: init.redirect_url,
    expires_in: toSeconds(init.expires_at - init.timestamp),
    interval: toSeconds(init.interval),
  };
}
