import type { Config } from "../config";
import type { RequestOrigin } from "../http/origin";
import { db } from "../db";
import { addressSubject, consumeRateLimit } from "../limits/rate-limit";
import { limitRules } from "../limits/rules";
import { hashSecret, randomId } from "../secrets";
import { newInitSecret, newUserCode } from "./codes";
import type { CreateInitBody } from "./schemas";

export type CreatedInit = {
  id: string;
  url: string;
  redirect_url: string;
  interval: number;
  timestamp: number;
  user_code: string;
  expires_at: number;
  secret: string;
};

export const initStatusUrl = (cfg: Config, id: string) => `${cfg.appUrl}/api/init/${id}`;
export const initPageUrl = (cfg: Config, id: string) => `${cfg.appUrl}/init/${id}`;

const USER_AGENT_MAX = 500;

// Create Init. URLs come from the configured APP_URL only, never from the request's Host.
export async function createInit(cfg: Config, body: CreateInitBody, origin: RequestOrigin): Promise<CreatedInit> {
  await consumeRateLimit(limitRules(cfg).createInit, addressSubject(origin.address));
  const prisma = await db();
  const now = Date.now();
  const secret = newInitSecret();
  const init = await prisma.init.create({
    data: {
      id: randomId(),
      userCode: newUserCode(),
      secretHash: hashSecret(secret),
      sender: body.sender,
      senderDevice: body.sender_device,
      senderOs: body.sender_os,
      senderIp: body.sender_ip,
      observedIp: origin.address,
      observedUserAgent: origin.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
      intervalMs: cfg.initIntervalMs,
      createdAt: new Date(now),
      expiresAt: new Date(now + cfg.initLifetimeMs),
    },
    select: { id: true, userCode: true, intervalMs: true, createdAt: true, expiresAt: true },
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
