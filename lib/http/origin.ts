import type { Config } from "../config";
import { clientAddress } from "./client";

/** Where a request came from, as the service saw it. */
export type RequestOrigin = { address: string | null; userAgent: string | null };

export function requestOrigin(cfg: Config, request: Request): RequestOrigin {
  return {
    address: clientAddress(request.headers, cfg.trustProxyHops),
    userAgent: request.headers.get("user-agent"),
  };
}
