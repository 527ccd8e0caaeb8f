import type { Config } from "../config";

// The WebAuthn relying party is this service as APP_URL names it: the origin an assertion's
// clientDataJSON must carry, and its host as the RP ID the credential is scoped to. A browser
// refuses an IP address as RP ID: passkeys need APP_URL with a host name (localhost included).

/** `name`: what the authenticator shows the person, the platform's name (APP_NAME). */
export type RelyingParty = { id: string; origin: string; name: string };

export function relyingParty(cfg: Config): RelyingParty {
  return { id: new URL(cfg.appUrl).hostname, origin: cfg.appUrl, name: cfg.brand.name };
}
