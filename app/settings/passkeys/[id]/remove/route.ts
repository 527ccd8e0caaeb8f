import { removePasskeyOperation } from "@/lib/api/operations/remove-passkey";
import { route } from "@/lib/api/route";
import { removePasskey } from "@/lib/passkeys/manage-passkeys";

export const POST = route(removePasskeyOperation, async ({ cfg, auth: user, params }) => {
  await removePasskey(cfg, user.id, params.id);
  return { to: "/settings/passkeys?removed=1" };
});
