import { denyInitOperation } from "@/lib/api/operations/deny-init";
import { route } from "@/lib/api/route";
import { denyInit } from "@/lib/init/deny-init";

export const POST = route(denyInitOperation, async ({ cfg, auth: user, params }) => {
  await denyInit(cfg, user.id, params.id);
  return { to: `/init/${params.id}` };
});
