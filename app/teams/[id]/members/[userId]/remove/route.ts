import { removeMemberOperation } from "@/lib/api/operations/teams";
import { route } from "@/lib/api/route";
import { removeMember } from "@/lib/teams/membership";

export const POST = route(removeMemberOperation, async ({ auth: user, params, body }) => {
  await removeMember(user.id, params.id, params.userId, body);
  return { to: user.id === params.userId ? "/teams?left=1" : `/teams/${encodeURIComponent(params.id)}?removed=1` };
});
