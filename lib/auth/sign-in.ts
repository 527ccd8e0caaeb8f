import type { Config } from "../config";
import { ApiError } from "../errors";
import type { RequestOrigin } from "../request-origin";
import { checkPassword } from "./password-check";
import type { Credentials } from "./schemas";
import { startSession } from "./sessions";
import { upgradePasswordHash } from "./upgrade-password-hash";

/**
 * Signs in with email and password; returns the new session's token. One message for an unknown
 * email and a wrong password, and the same scrypt work for both; the password is checked under
 * the limits of every password check (lib/auth/password-check.ts).
 */
export async function signIn(cfg: Config, credentials: Credentials, origin: RequestOrigin): Promise<string> {
  const user = await checkPassword(cfg, credentials.email, credentials.password, origin);
  if (user === null) throw new ApiError("invalid_credentials", "The email or password is not right.");
  await upgradePasswordHash(cfg, user.id, user.passwordHash, credentials.password);
  return startSession(cfg, user.id, origin);
}
