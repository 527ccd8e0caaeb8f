import { emptyFormSchema, route } from "@/lib/http/route";
import { revokeAccessToken } from "@/lib/tokens/manage-access-tokens";
import { tokenIdParamsSchema } from "@/lib/tokens/schemas";

// POST /settings/tokens/{id}/revoke — the Revoke button of a token on the settings page
export const POST = route(
  { auth: "session", sameOrigin: true, params: tokenIdParamsSchema, body: { form: emptyFormSchema }, answer: { redirect: true, back: () => "/settings/tokens" } },
  async ({ auth: user, params }) => {
    await revokeAccessToken(user.id, params.id);
    return { to: `/settings/tokens?revoked=${encodeURIComponent(params.id)}` };
  },
);
