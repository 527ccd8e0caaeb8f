import type { z } from "zod";
import type { ErrorCode } from "../../errors";
import { credentialsSchema, signUpSchema } from "../../auth/schemas";
import { formFlashCookie } from "../form-flash";
import { operation } from "../operation";
import { backToForm } from "../return-to";

// POST /auth/signup and POST /auth/signin — the two email-and-password forms. Each goes back to
// its page on a refusal, keeping the email typed (lib/api/form-flash.ts); sign-in's limits per
// address and per account and address are both rate_limited. With LOCAL_PASSWORDS=off both are
// passwords_off; with SIGN_UP=off sign-up is sign_up_closed, and with SIGN_UP=invite unless it carries
// an invitation its email may accept (lib/auth/account-policy.ts).

const credentialsForm = <B>(page: "/signup" | "/signin", schema: z.ZodType<B>, refusals: ErrorCode[]) =>
  operation({
    method: "POST",
    route: `/auth${page}`,
    auth: "none",
    sameOrigin: true,
    body: { form: schema },
    answer: {
      redirect: true,
      back: (_params, query) => backToForm(page, query),
      keep: (cfg, fields, error) => formFlashCookie(cfg, page, fields, error),
    },
    errors: ["cross_site_request", "unsupported_media_type", "payload_too_large", "invalid_request", "rate_limited", "passwords_off", ...refusals],
  });

export const signUpOperation = credentialsForm("/signup", signUpSchema, ["sign_up_closed", "email_taken"]);
export const signInOperation = credentialsForm("/signin", credentialsSchema, ["invalid_credentials"]);
