import { signInOperation } from "@/lib/api/operations/sign-in-and-sign-up";
import { route } from "@/lib/api/route";
import { safeReturnTo } from "@/lib/api/return-to";
import { signIn } from "@/lib/auth/sign-in";

export const POST = route(signInOperation, async ({ cfg, body, origin, query }) => ({ session: await signIn(cfg, body, origin), to: safeReturnTo(query.get("returnTo")) }));
