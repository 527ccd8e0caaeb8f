import { signedInUserId } from "../auth/sessions";
import type { Config } from "../config";
import { readFormBody } from "../http/body";
import { redirectResponse } from "../http/response";
import { parseInput } from "../http/validate";
import { createAccessToken, newTokenSchema, revokeAccessToken } from "./access-tokens";

/** What the new-token form gets back: the token itself, this once and never again. */
export type NewTokenAnswer = { id: string; token: string; name: string; expires_at: number | null };

export async function createTokenFromForm(cfg: Config, request: Request): Promise<NewTokenAnswer> {
  const userId = await signedInUserId(cfg, request.headers, "Sign in to create an access token.");
  const input = parseInput(newTokenSchema, Object.fromEntries(await readFormBody(request)));
  const issued = await createAccessToken(userId, input);
  return { id: issued.id, token: issued.token, name: input.name, expires_at: issued.expiresAt?.getTime() ?? null };
}

export async function revokeTokenFromForm(cfg: Config, request: Request, tokenId: string): Promise<Response> {
  const userId = await signedInUserId(cfg, request.headers, "Sign in to revoke an access token.");
  await readFormBody(request);
  await revokeAccessToken(userId, tokenId);
  return redirectResponse(cfg.appUrl, "/settings/tokens");
}
