import { emptyFormSchema, route } from "@/lib/http/route";
import { revokeProjectLink } from "@/lib/links/manage-links";
import { revokeLinkParamsSchema } from "@/lib/links/schemas";

// POST /projects/{id}/links/{linkId}/revoke — the Revoke button of a linked client on the project page
export const POST = route(
  {
    auth: "session",
    sameOrigin: true,
    params: revokeLinkParamsSchema,
    body: { form: emptyFormSchema },
    answer: { redirect: true, back: ({ id }) => `/projects/${encodeURIComponent(id)}` },
  },
  async ({ auth: user, params }) => {
    await revokeProjectLink(user.id, params.id, params.linkId);
    return { to: `/projects/${encodeURIComponent(params.id)}?revoked=${encodeURIComponent(params.linkId)}` };
  },
);
