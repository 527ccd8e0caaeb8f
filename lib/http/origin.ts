import type { Config } from "../config";
import type { RequestOrigin } from "../init/create";
import { clientAddress } from "./client";

export function requestOrigin(cfg: Config, request: Request): RequestOrigin {
  return {
    address: clientAddress(request.headers, cfg.trustProxyHops),
    userAgent: request.headers.get("user-agent"),
  };
}
