import { z } from "zod";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { PASSKEY_NAME_MAX, PASSKEY_RESPONSE_MAX, PASSWORD_MAX } from "../field-lengths";
import { requiredText } from "../text";

// The passkey forms: what @simplewebauthn/browser made of the authenticator's answer, sent as
// JSON text in a form field, and checked here for its shape only (the library verifies the rest).

const base64url = z.string().max(PASSKEY_RESPONSE_MAX).regex(/^[A-Za-z0-9_-]*$/, { error: "must be base64url" });

// The browser's extension results play no part in the verification: read as none.
const clientExtensionResults = z.object({}).default({});

const registrationResponseSchema = z.object({
  id: base64url.min(1),
  rawId: base64url.min(1),
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: base64url,
    attestationObject: base64url,
    transports: z.array(z.enum(["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"])).optional(),
  }),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  clientExtensionResults,
});

const authenticationResponseSchema = z.object({
  id: base64url.min(1),
  rawId: base64url.min(1),
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: base64url,
    authenticatorData: base64url,
    signature: base64url,
    userHandle: base64url.optional(),
  }),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  clientExtensionResults,
});

/** A form field holding a JSON value of `schema`. */
const jsonField = <T>(schema: z.ZodType<T, unknown>) =>
  z
    .string({ error: "is required" })
    .max(PASSKEY_RESPONSE_MAX)
    .transform((text, ctx): T => {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        ctx.addIssue({ code: "custom", message: "must be JSON" });
        return z.NEVER;
      }
      const parsed = schema.safeParse(value);
      if (parsed.success) return parsed.data;
      ctx.addIssue({ code: "custom", message: "is not a WebAuthn credential" });
      return z.NEVER;
    });

export const registrationField = jsonField<RegistrationResponseJSON>(registrationResponseSchema);
export const assertionField = jsonField<AuthenticationResponseJSON>(authenticationResponseSchema);

/**
 * What the settings page's script sends for the options of a new passkey (JSON): the proof that
 * the person holds the account, asked for before a registration challenge is handed out. An
 * assertion of one of its passkeys made for adding one (lib/passkeys/step-up.ts), or, on an
 * account without a passkey, its current password; which one the account needs is decided there.
 */
export const registrationProofSchema = z.object({
  passkey_assertion: authenticationResponseSchema.optional(),
  current_password: z.string().min(1, { error: "must not be empty" }).max(PASSWORD_MAX, { error: `must be at most ${PASSWORD_MAX} characters` }).optional(),
});

export type RegistrationProof = z.infer<typeof registrationProofSchema>;

/** The settings page's new-passkey form. */
export const addPasskeyFormSchema = z.object({ name: requiredText(PASSKEY_NAME_MAX), credential: registrationField });

/** The sign-in page's passkey form. */
export const passkeySignInFormSchema = z.object({ credential: assertionField });

/**
 * A form that may carry a step-up assertion (lib/passkeys/step-up.ts): the approve forms and the
 * settings switch. Absent or empty (the page's field before its script fills it, or without
 * JavaScript) when the account does not need one or the browser made none.
 */
export const stepUpFieldsSchema = z.object({ passkey_assertion: z.preprocess((value) => (value === "" ? undefined : value), assertionField.optional()) });

export const passkeyIdParamsSchema = z.object({ id: z.string() });

/** The settings switch "approvals need a passkey". */
export const passkeyApprovalsFormSchema = z.intersection(z.object({ required: z.enum(["on", "off"], { error: "must be on or off" }) }), stepUpFieldsSchema);

/** What a step-up assertion is asked for: one init's approval, one link's, turning the setting off, or adding a passkey. */
export const stepUpRequestSchema = z.object({
  for: z.union([
    z.object({ kind: z.literal("init"), id: z.string().max(100) }),
    z.object({ kind: z.literal("link"), projectId: z.string().max(100), iv: z.string().max(100) }),
    z.object({ kind: z.literal("settings") }),
    z.object({ kind: z.literal("add_passkey") }),
  ]),
});

export type StepUpRequest = z.infer<typeof stepUpRequestSchema>;
