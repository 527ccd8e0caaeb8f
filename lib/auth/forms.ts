import type { Config } from "../config";
import { readFormBody } from "../http/body";
import { requestOrigin } from "../http/origin";
import { addressSubject, consumeRateLimit } from "../limits/rate-limit";
import { limitRules } from "../limits/rules";
import { redirectResponse } from "../http/response";
import { parseInput } from "../http/validate";
import { signIn, signUp } from "./accounts";
import { safeReturnTo } from "./return-to";
import { credentialsSchema } from "./schemas";
import { startSession } from "./sessions";

/** Signs up or in from a posted form, starts a fresh session and returns to `returnTo`. */
export async function authenticateFromForm(cfg: Config, request: Request, mode: "signin" | "signup"): Promise<Response> {
  const form = await readFormBody(request);
  const credentials = parseInput(credentialsSchema, { email: form.get("email") ?? undefined, password: form.get("password") ?? undefined });
  // Every attempt counts against its address: each costs a password hash.
  const address = addressSubject(requestOrigin(cfg, request).address);
  await consumeRateLimit(limitRules(cfg).authPerAddress, address);
  const userId = mode === "signup" ? await signUp(credentials) : await signIn(cfg, credentials, address);
  const cookie = await startSession(cfg, userId);
  return redirectResponse(cfg.appUrl, safeReturnTo(new URL(request.url).searchParams.get("returnTo")), cookie);
}

/** Where a failed sign-in or sign-up sends the person back to, keeping the return target. */
export function backToForm(page: "/signin" | "/signup", query: URLSearchParams): string {
  const returnTo = safeReturnTo(query.get("returnTo"));
  return returnTo === "/" ? page : `${page}?returnTo=${encodeURIComponent(returnTo)}`;
}
