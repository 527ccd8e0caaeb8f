import { signOutOtherSessionsOperation } from "@/lib/api/operations/account-settings";
import { route } from "@/lib/api/route";
import { signOutOtherSessions } from "@/lib/auth/account-sessions";

export const POST = route(signOutOtherSessionsOperation, async ({ auth: user }) => {
  const count = await signOutOtherSessions(user.id, user.sessionId);
  return { to: `/settings/sessions?signedOut=${count}` };
});
