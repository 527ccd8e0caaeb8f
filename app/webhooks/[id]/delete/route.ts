import { deleteEndpointOperation } from "@/lib/api/operations/webhooks";
import { route } from "@/lib/api/route";
import { deleteEndpoint } from "@/lib/events/endpoints";

export const POST = route(deleteEndpointOperation, async ({ auth: user, params }) => {
  await deleteEndpoint(user.id, params.id);
  return { to: "/webhooks?deleted=1" };
});
