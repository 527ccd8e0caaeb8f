import { backToForm, safeReturnTo } from "@/lib/auth/return-to";
import { credentialsSchema } from "@/lib/auth/schemas";
import { signUp } from "@/lib/auth/sign-up";
import { route } from "@/lib/http/route";

// POST /auth/signup — the sign-up form
export const POST = route(
  { auth: "none", sameOrigin: true, body: { form: credentialsSchema }, answer: { redirect: true, back: (_params, query) => backToForm("/signup", query) } },
  async ({ cfg, body, origin, query }) => ({ setCookie: await signUp(cfg, body, origin), to: safeReturnTo(query.get("returnTo")) }),
);
