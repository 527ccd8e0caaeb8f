import { savePrivacyOperation } from "@/lib/api/operations/account-settings";
import { route } from "@/lib/api/route";
import { setShareEmailWithClients } from "@/lib/auth/account-settings";

export const POST = route(savePrivacyOperation, async ({ auth: user, body }) => {
  await setShareEmailWithClients(user.id, body.share_email === "on");
  return { to: "/settings/privacy?saved=1" };
});
