import { rotateEndpointSecretOperation } from "@/lib/api/operations/webhooks";
import { route } from "@/lib/api/route";
import { rotateEndpointSecret } from "@/lib/events/endpoints";

export const POST = route(rotateEndpointSecretOperation, ({ cfg, auth: user, params, body }) => rotateEndpointSecret(cfg, user.id, params.id, body.overlap_hours));
