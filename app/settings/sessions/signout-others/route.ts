import { signOutOtherSessionsOperation } from "@/lib/api/operations/account-settings";
import { route } from "@/lib/api/route";
import { signOutOtherSessions } from "@/lib/auth/account-sessions";

export const POST = route(signOutOtherSessionsOperation, async ({ auth: user, origin }) => {
  const { ended, token } = await signOutOtherSessions(user, origin);
  // This browser's new session, in place of its old one.
  return { to: `/settings/sessions?signedOut=${ended}`, session: token };
});
