import { requestPasswordResetOperation } from "@/lib/api/operations/account-recovery";
import { route } from "@/lib/api/route";
import { requestPasswordReset } from "@/lib/auth/password-reset";

export const POST = route(requestPasswordResetOperation, async ({ cfg, body, origin }) => {
  await requestPasswordReset(cfg, body, origin);
  return { to: "/forgot-password?sent=1" };
});
