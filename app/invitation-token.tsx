"use client";

import { useEffect, useState } from "react";

// An invitation link carries its token in the fragment (/teams/join#token=…), which no server
// receives, and a sign-in's return target (lib/api/return-to.ts) keeps a path and a query only.
// So the page keeps the token for this tab in sessionStorage, takes it out of the address bar
// and the history, and finds it there again once the person is back from signing in or up.

const STORAGE_KEY = "initlink:team_invitation";

/** The invitation's token: null until read in the browser, "" when this tab has none. */
export function useInvitationToken(): string | null {
  const [token, setToken] = useState<string | null>(null);
  useEffect(() => {
    const fromLink = new URLSearchParams(window.location.hash.slice(1)).get("token");
    if (fromLink !== null) {
      sessionStorage.setItem(STORAGE_KEY, fromLink);
      history.replaceState(null, "", window.location.pathname + window.location.search);
    }
    setToken(fromLink ?? sessionStorage.getItem(STORAGE_KEY) ?? "");
  }, []);
  return token;
}

/**
 * The sign-up form's invitation (SIGN_UP=invite): the token this tab keeps from an invitation
 * link, sent with the form so that the service lets the sign-up through (lib/auth/account-policy.ts).
 */
export function InvitationField() {
  const token = useInvitationToken();
  return (
    <>
      <input type="hidden" name="invitation" value={token ?? ""} />
      <p className="muted">
        {token === ""
          ? "Sign-up here is by invitation only: open the invitation link a team's admin sent you, in this tab, then sign up with the address it was sent to."
          : "Sign-up here is by invitation only: sign up with the address your invitation was sent to, then join the team."}
      </p>
    </>
  );
}
