import { otherMethods } from "@/lib/api/method-not-allowed";
import { getInitStatusOperation } from "@/lib/api/operations/get-init-status";
import { route } from "@/lib/api/route";
import { readInitStatus } from "@/lib/init/read-init-status";

export const GET = route(getInitStatusOperation, (input) =>
  readInitStatus(
    input.cfg,
    input.params.id,
    { secret: input.auth, sessionToken: input.sessionToken, origin: () => input.origin, dpop: input.dpop },
    { seconds: input.wait, signal: input.signal, edgeHold: input.edgeHold },
  ),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(getInitStatusOperation);
