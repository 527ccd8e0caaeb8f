import { signOutOperation } from "@/lib/api/operations/sign-out";
import { route } from "@/lib/api/route";
import { signOut } from "@/lib/auth/sessions";

export const POST = route(signOutOperation, async ({ sessionToken }) => {
  await signOut(sessionToken);
  return { session: null, to: "/" };
});
