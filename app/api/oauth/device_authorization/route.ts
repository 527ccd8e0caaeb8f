import { otherMethods } from "@/lib/api/method-not-allowed";
import { deviceAuthorizationOperation } from "@/lib/api/operations/device-authorization";
import { route } from "@/lib/api/route";
import { authorizeDevice } from "@/lib/oauth/device-authorization";

export const POST = route(deviceAuthorizationOperation, ({ cfg, body, origin, dpop }) => authorizeDevice(cfg, body, origin, dpop));

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods(deviceAuthorizationOperation);
