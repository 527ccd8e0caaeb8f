"use client";

import { useInvitationToken } from "../../invitation-token";

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
