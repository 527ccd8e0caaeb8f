import { passkeyRegistrationOptionsOperation } from "@/lib/api/operations/passkey-options";
import { route } from "@/lib/api/route";
import { registrationOptions } from "@/lib/passkeys/register-passkey";

export const POST = route(passkeyRegistrationOptionsOperation, ({ cfg, auth: user, body, origin }) => registrationOptions(cfg, user, body, origin));
