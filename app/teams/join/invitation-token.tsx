"use client";

import { useEffect, useState } from "react";

// An invitation link carries its token in the fragment (/teams/join#token=…), which no server
// receives, and a sign-in's return target (lib/api/return-to.ts) keeps a path and a query only.
// So the page keeps the token for this tab in sessionStorage, takes it out of the address bar
// and the history, and finds it there again once the person is back from signing in or up.

const STORAGE_KEY = "initlink:team_invitation";

/** The invitation's token: null until read in the browser, "" when this tab has none. */
function useInvitationToken(): string | null {
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

function NoInvitation() {
  return (
    <p role="alert" className="error">
      This page works from an invitation link: open the link the team&apos;s admin sent you, in this tab.
    </p>
  );
}

/** For a signed-out visitor: keeps the token until they are back, and says if there is none. */
export function InvitationKept() {
  return useInvitationToken() === "" ? <NoInvitation /> : null;
}

/** The Join form: the token as a hidden field, and the button once there is one. */
export function JoinForm({ email }: { email: string }) {
  const token = useInvitationToken();
  return (
    <form method="post" action="/teams/join/accept" className="card stack narrow">
      <input type="hidden" name="token" value={token ?? ""} />
      {token === "" ? <NoInvitation /> : null}
      <p>
        You join as <strong className="long-words">{email}</strong>, with the role the invitation gives.
      </p>
      <button type="submit" disabled={token === null || token === ""}>
        Join the team
      </button>
    </form>
  );
}
