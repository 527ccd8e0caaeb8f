import { changePasswordOperation } from "@/lib/api/operations/account-settings";
import { route } from "@/lib/api/route";
import { changePassword } from "@/lib/auth/change-password";

export const POST = route(changePasswordOperation, async ({ cfg, auth: user, body, origin }) => {
  await changePassword(cfg, user, body, origin);
  return { to: "/settings/password?changed=1" };
});
