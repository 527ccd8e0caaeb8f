import { route } from "@/lib/http/route";
import { createAccessToken } from "@/lib/tokens/issue-access-token";
import { newTokenSchema } from "@/lib/tokens/schemas";

// POST /settings/tokens/create — the new-token form of the settings page. It answers JSON, not
// a redirect, so that the token, shown once, never travels in a URL or a cookie.
export const POST = route(
  { auth: "session", sameOrigin: true, body: { form: newTokenSchema }, answer: { status: 201 } },
  ({ auth: user, body }) => createAccessToken(user.id, body),
);
