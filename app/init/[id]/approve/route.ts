import { route } from "@/lib/http/route";
import { approveInit } from "@/lib/init/approve-init";
import { approveFormSchema, initIdParamsSchema } from "@/lib/init/schemas";

// POST /init/{id}/approve — the approve form of the init page
export const POST = route(
  {
    auth: "session",
    sameOrigin: true,
    params: initIdParamsSchema,
    body: { form: approveFormSchema },
    answer: { redirect: true, back: ({ id }) => `/init/${encodeURIComponent(id)}` },
  },
  async ({ cfg, auth: user, params, body, origin }) => {
    await approveInit(cfg, user.id, params.id, body.choice, body.check, origin);
    return { to: `/init/${params.id}` };
  },
);
