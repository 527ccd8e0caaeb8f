import { backToForm, safeReturnTo } from "@/lib/auth/return-to";
import { formFlashCookie } from "@/lib/auth/form-flash";
import { credentialsSchema } from "@/lib/auth/schemas";
import { signUp } from "@/lib/auth/sign-up";
import { route } from "@/lib/http/route";

// POST /auth/signup — the sign-up form
export const POST = route(
  {
    auth: "none",
    sameOrigin: true,
    body: { form: credentialsSchema },
    answer: {
      redirect: true,
      back: (_params, query) => backToForm("/signup", query),
      keep: (cfg, fields, error) => formFlashCookie(cfg, "/signup", fields, error),
    },
  },
  async ({ cfg, body, origin, query }) => ({ setCookie: await signUp(cfg, body, origin), to: safeReturnTo(query.get("returnTo")) }),
);
