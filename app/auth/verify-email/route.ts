import { verifyEmailOperation } from "@/lib/api/operations/account-recovery";
import { route } from "@/lib/api/route";
import { verifyEmail } from "@/lib/auth/email-verification";

export const POST = route(verifyEmailOperation, async ({ body }) => {
  await verifyEmail(body);
  return { to: "/verify-email?confirmed=1" };
});
