import { enableEndpointOperation } from "@/lib/api/operations/webhooks";
import { route } from "@/lib/api/route";
import { setEndpointEnabled } from "@/lib/events/endpoints";

export const POST = route(enableEndpointOperation, async ({ auth: user, params }) => {
  await setEndpointEnabled(user.id, params.id, true);
  return { to: `/webhooks/${encodeURIComponent(params.id)}?enabled=1` };
});
