import { approveInitOperation } from "@/lib/api/operations/approve-init";
import { route } from "@/lib/api/route";
import { approveInit } from "@/lib/init/approve-init";

export const POST = route(approveInitOperation, async ({ cfg, auth: user, params, body, origin }) => {
  await approveInit(cfg, user.id, params.id, body, origin);
  return { to: `/init/${params.id}` };
});
