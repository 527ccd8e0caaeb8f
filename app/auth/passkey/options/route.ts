import { passkeySignInOptionsOperation } from "@/lib/api/operations/passkey-options";
import { route } from "@/lib/api/route";
import { signInOptions } from "@/lib/passkeys/passkey-sign-in";

export const POST = route(passkeySignInOptionsOperation, ({ cfg, origin }) => signInOptions(cfg, origin));
