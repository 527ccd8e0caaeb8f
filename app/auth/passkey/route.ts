import { signInWithPasskeyOperation } from "@/lib/api/operations/sign-in-with-passkey";
import { route } from "@/lib/api/route";
import { safeReturnTo } from "@/lib/api/return-to";
import { signInWithPasskey } from "@/lib/passkeys/passkey-sign-in";

export const POST = route(signInWithPasskeyOperation, async ({ cfg, body, origin, query }) => ({ session: await signInWithPasskey(cfg, body.credential, origin), to: safeReturnTo(query.get("returnTo")) }));
