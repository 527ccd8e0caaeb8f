import { emptyFormSchema, route } from "@/lib/http/route";
import { denyInit } from "@/lib/init/deny-init";
import { initIdParamsSchema } from "@/lib/init/schemas";

// POST /init/{id}/deny — the deny form of the init page
export const POST = route(
  {
    auth: "session",
    sameOrigin: true,
    params: initIdParamsSchema,
    body: { form: emptyFormSchema },
    answer: { redirect: true, back: ({ id }) => `/init/${encodeURIComponent(id)}` },
  },
  async ({ cfg, auth: user, params, origin }) => {
    await denyInit(cfg, user.id, params.id, origin);
    return { to: `/init/${params.id}` };
  },
);
