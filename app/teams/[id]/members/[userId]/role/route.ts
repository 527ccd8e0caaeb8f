import { changeRoleOperation } from "@/lib/api/operations/teams";
import { route } from "@/lib/api/route";
import { changeRole } from "@/lib/teams/membership";

export const POST = route(changeRoleOperation, async ({ auth: user, params, body }) => {
  await changeRole(user.id, params.id, params.userId, body.role);
  return { to: `/teams/${encodeURIComponent(params.id)}?role_changed=1` };
});
