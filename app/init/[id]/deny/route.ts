import { denyInitOperation } from "@/lib/api/operations/deny-init";
import { route } from "@/lib/api/route";
import { denyInit } from "@/lib/init/deny-init";

export const POST = route(denyInitOperation, async ({ cfg, auth: user, params, origin }) => {
  await denyInit(cfg, user.id, params.id, origin);
  return { to: `/init/${params.id}` };
});
