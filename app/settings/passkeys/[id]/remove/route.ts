import { removePasskeyOperation } from "@/lib/api/operations/remove-passkey";
import { route } from "@/lib/api/route";
import { removePasskey } from "@/lib/passkeys/manage-passkeys";

export const POST = route(removePasskeyOperation, async ({ auth: user, params }) => {
  await removePasskey(user.id, params.id);
  return { to: "/settings/passkeys?removed=1" };
});
