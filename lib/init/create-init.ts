import type { Config } from "../config";
import { addressSubject, consumeRateLimit } from "../limits/rate-limit";
import { limitRules } from "../limits/rules";
import type { RequestOrigin } from "../request-origin";
import { hashSecret, randomId, randomSecret } from "../secrets";
import { insertInit } from "./init-group-commit";
import type { CreatedInit, CreateInitBody } from "./schemas";
import { newUserCode } from "./user-code";

// Create Init (SPEC §4.1): the client names itself and gets the status resource to poll, the
// page to send the person to, and a secret that only it knows.

export type { CreatedInit };

export const initStatusUrl = (cfg: Config, id: string) => `${cfg.appUrl}/api/init/${id}`;
export const initPageUrl = (cfg: Config, id: string) => `${cfg.appUrl}/init/${id}`;

/** The prefix of the one-time secret only the creating client learns; secret scanners find it by it. */
export const INIT_SECRET_PREFIX = "ilsec_";

const unbound = async () => null;

// URLs come from the configured APP_URL only, never from the request's Host.
/**
 * `boundKey`: the DPoP key the init's token is bound to (a device authorization's proof,
 * lib/oauth/device-authorization.ts), worked out once the limit has let the request through.
 */
export async function createInit(cfg: Config, body: CreateInitBody, origin: RequestOrigin, boundKey: () => Promise<string | null> = unbound): Promise<CreatedInit> {
  await consumeRateLimit(limitRules(cfg).createInit, addressSubject(origin.address));
  const dpopJkt = await boundKey();
  const now = Date.now();
  const secret = randomSecret(INIT_SECRET_PREFIX);
  const init = {
    id: randomId(),
    userCode: newUserCode(),
    intervalMs: cfg.initIntervalMs,
    createdAt: new Date(now),
    expiresAt: new Date(now + cfg.initLifetimeMs),
  };
  // Answered once the row is durable, in a commit shared with the inits that arrived with it.
  await insertInit({
    ...init,
    secretHash: hashSecret(secret),
    sender: body.sender,
    senderDevice: body.sender_device,
    senderOs: body.sender_os,
    senderIp: body.sender_ip,
    bindingMessage: body.binding_message,
    userCodeShown: body.user_code_shown,
    observedIp: origin.address,
    observedUserAgent: origin.userAgent,
    dpopJkt,
  });
  return {
    id: init.id,
    url: initStatusUrl(cfg, init.id),
    redirect_url: initPageUrl(cfg, init.id),
    interval: init.intervalMs,
    timestamp: init.createdAt.getTime(),
    user_code: init.userCode,
    expires_at: init.expiresAt.getTime(),
    secret,
  };
}
