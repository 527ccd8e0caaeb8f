import { changePasswordOperation } from "@/lib/api/operations/account-settings";
import { route } from "@/lib/api/route";
import { changePassword } from "@/lib/auth/change-password";

export const POST = route(changePasswordOperation, async ({ cfg, auth: user, body, origin }) => ({
  to: "/settings/password?changed=1",
  // This browser's new session: the old one ended with every other.
  session: await changePassword(cfg, user, body, origin),
}));
