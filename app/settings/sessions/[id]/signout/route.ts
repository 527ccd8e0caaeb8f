import { signOutSessionOperation } from "@/lib/api/operations/account-settings";
import { route } from "@/lib/api/route";
import { signOutSession } from "@/lib/auth/account-sessions";

export const POST = route(signOutSessionOperation, async ({ auth: user, params }) => {
  await signOutSession(user.id, params.id);
  // Signing out the browser's own session from the list is signing out.
  if (params.id === user.sessionId) return { session: null, to: "/" };
  return { to: "/settings/sessions?signedOut=1" };
});
