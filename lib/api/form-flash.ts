import type { Config } from "../config";
import type { ApiError } from "../errors";
import { EMAIL_MAX } from "../field-lengths";
import { cookieAttributes } from "./session-cookie";

// What a refused sign-in or sign-up form shows again: the email typed and the field at fault.
// It travels in a cookie sent to the form's page alone and kept for a minute, not in the URL,
// where an email would stay in the browser's history, in proxies' logs and on a shared screen.
// The password is never kept anywhere: the person types it again.

export type AuthField = "email" | "password";
export type FormFlash = { email: string; field: AuthField | null };

export const FORM_FLASH_COOKIE = "initlink_form";
const FORM_FLASH_SECONDS = 60;

const isAuthField = (value: unknown): value is AuthField => value === "email" || value === "password";

/** The field a refusal is about: the first one the schema named, or the one the code implies. */
function fieldAtFault(error: ApiError): AuthField | null {
  if (error.code === "email_taken") return "email";
  const named = error.data.fields?.[0]?.field;
  return isAuthField(named) ? named : null;
}

/** The Set-Cookie value that carries a refused form's email and field back to `page`. */
export function formFlashCookie(cfg: Config, page: "/signin" | "/signup", fields: Record<string, string>, error: ApiError): string {
  const flash: FormFlash = { email: (fields.email ?? "").trim().slice(0, EMAIL_MAX), field: fieldAtFault(error) };
  return `${FORM_FLASH_COOKIE}=${encodeURIComponent(JSON.stringify(flash))}; ${cookieAttributes(cfg, page, FORM_FLASH_SECONDS)}`;
}

/** The flash a form's page received, if any; anything malformed reads as none. */
export function readFormFlash(value: string | undefined): FormFlash | null {
  if (value === undefined) return null;
  try {
    const parsed: unknown = JSON.parse(decodeURIComponent(value));
    if (typeof parsed !== "object" || parsed === null || !("email" in parsed) || typeof parsed.email !== "string") return null;
    const field = "field" in parsed && isAuthField(parsed.field) ? parsed.field : null;
    return { email: parsed.email.slice(0, EMAIL_MAX), field };
  } catch {
    return null;
  }
}
