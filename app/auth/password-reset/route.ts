import { resetPasswordOperation } from "@/lib/api/operations/account-recovery";
import { route } from "@/lib/api/route";
import { resetPassword } from "@/lib/auth/password-reset";

export const POST = route(resetPasswordOperation, async ({ cfg, body, origin }) => {
  await resetPassword(cfg, body, origin);
  return { to: "/signin?reset=1" };
});
