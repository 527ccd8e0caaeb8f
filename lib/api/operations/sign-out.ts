import { operation } from "../operation";

// POST /auth/signout — ends the session and deletes its cookie. It reads no body and needs no
// session (signing out twice is harmless): only the same-site check and two session cookies
// (neither is trusted: lib/api/session-cookie.ts) can refuse it.
export const signOutOperation = operation({
  method: "POST",
  route: "/auth/signout",
  auth: "none",
  sameOrigin: true,
  answer: { redirect: true, back: () => "/" },
  errors: ["cross_site_request", "duplicate_session_cookie"],
});
