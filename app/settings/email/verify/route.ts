import { resendVerificationOperation } from "@/lib/api/operations/account-recovery";
import { route } from "@/lib/api/route";
import { resendVerification } from "@/lib/auth/email-verification";

export const POST = route(resendVerificationOperation, async ({ cfg, auth: user }) => {
  await resendVerification(cfg, user);
  return { to: "/settings/email?sent=1" };
});
