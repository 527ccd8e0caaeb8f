import { signOut } from "@/lib/auth/sessions";
import { route } from "@/lib/http/route";

// POST /auth/signout — deletes the session and its cookie
export const POST = route({ auth: "none", sameOrigin: true, answer: { redirect: true, back: () => "/" } }, async ({ cfg, sessionToken }) => ({
  setCookie: await signOut(cfg, sessionToken),
  to: "/",
}));
