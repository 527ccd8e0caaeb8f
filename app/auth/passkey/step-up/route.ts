import { passkeyStepUpOptionsOperation } from "@/lib/api/operations/passkey-options";
import { route } from "@/lib/api/route";
import { stepUpOptions, stepUpSubject } from "@/lib/passkeys/step-up";

export const POST = route(passkeyStepUpOptionsOperation, ({ cfg, auth: user, body }) => stepUpOptions(cfg, user.id, stepUpSubject(body.for)));
