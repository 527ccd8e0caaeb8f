import { backToForm, safeReturnTo } from "@/lib/auth/return-to";
import { formFlashCookie } from "@/lib/auth/form-flash";
import { credentialsSchema } from "@/lib/auth/schemas";
import { signIn } from "@/lib/auth/sign-in";
import { route } from "@/lib/http/route";

// POST /auth/signin — the sign-in form
export const POST = route(
  {
    auth: "none",
    sameOrigin: true,
    body: { form: credentialsSchema },
    answer: {
      redirect: true,
      back: (_params, query) => backToForm("/signin", query),
      keep: (cfg, fields, error) => formFlashCookie(cfg, "/signin", fields, error),
    },
  },
  async ({ cfg, body, origin, query }) => ({ setCookie: await signIn(cfg, body, origin), to: safeReturnTo(query.get("returnTo")) }),
);
