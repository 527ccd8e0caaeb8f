import { resetPasswordOperation } from "@/lib/api/operations/account-recovery";
import { route } from "@/lib/api/route";
import { resetPassword } from "@/lib/auth/password-reset";

export const POST = route(resetPasswordOperation, async ({ cfg, body, origin }) => {
  const { firstConfirmation } = await resetPassword(cfg, body, origin);
  return { to: firstConfirmation ? "/signin?reset=confirmed" : "/signin?reset=1" };
});
