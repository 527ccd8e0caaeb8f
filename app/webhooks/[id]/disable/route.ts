import { disableEndpointOperation } from "@/lib/api/operations/webhooks";
import { route } from "@/lib/api/route";
import { setEndpointEnabled } from "@/lib/events/endpoints";

export const POST = route(disableEndpointOperation, async ({ auth: user, params }) => {
  await setEndpointEnabled(user.id, params.id, false);
  return { to: `/webhooks/${encodeURIComponent(params.id)}?disabled=1` };
});
