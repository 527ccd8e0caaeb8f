import { enterUserCodeOperation } from "@/lib/api/operations/enter-user-code";
import { route } from "@/lib/api/route";
import { findInitByUserCode } from "@/lib/init/find-by-user-code";

export const POST = route(enterUserCodeOperation, async ({ cfg, auth: user, body, origin }) => {
  const init = await findInitByUserCode(cfg, user, body.user_code, origin);
  return { to: `/init/${init.id}` };
});
