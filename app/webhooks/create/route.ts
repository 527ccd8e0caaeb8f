import { createEndpointOperation } from "@/lib/api/operations/webhooks";
import { route } from "@/lib/api/route";
import { createEndpoint } from "@/lib/events/endpoints";

export const POST = route(createEndpointOperation, ({ cfg, auth: user, body }) => createEndpoint(cfg, user.id, body));
