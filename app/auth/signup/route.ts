import { signUpOperation } from "@/lib/api/operations/sign-in-and-sign-up";
import { route } from "@/lib/api/route";
import { safeReturnTo } from "@/lib/api/return-to";
import { signUp } from "@/lib/auth/sign-up";
import { invitationAdmits } from "@/lib/teams/invitations";

export const POST = route(signUpOperation, async ({ cfg, body, origin, query }) => ({
  session: await signUp(cfg, body, origin, await invitationAdmits(body.invitation, body.email)),
  to: safeReturnTo(query.get("returnTo")),
}));
