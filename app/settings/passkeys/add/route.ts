import { addPasskeyOperation } from "@/lib/api/operations/add-passkey";
import { route } from "@/lib/api/route";
import { addPasskey } from "@/lib/passkeys/register-passkey";

export const POST = route(addPasskeyOperation, async ({ cfg, auth: user, body, origin }) => ({ to: `/settings/passkeys?added=${await addPasskey(cfg, user.id, body.name, body.credential, origin)}` }));
