import type { Metadata } from "next";
import Link from "next/link";
import { currentUser } from "@/lib/api/page-session";
import { withReturnTo } from "@/lib/api/return-to";
import { passwordSignUpByInvitation, passwordSignUpOpen } from "@/lib/auth/account-policy";
import { config } from "@/lib/config";
import { pageMessage } from "@/lib/errors";
import { DeadLink } from "../../dead-link";
import { ErrorAlert } from "../../form-parts";
import { InvitationKept, JoinForm } from "./invitation-token";

export const metadata: Metadata = { title: "Join a team" };

// The way back after signing in: without the fragment, which the page keeps itself (./invitation-token.tsx).
const JOIN_PAGE = "/teams/join";

/** Refusals after which this invitation can never be accepted: no form, the way to the person's teams instead. */
const FINAL_ERRORS = new Set(["invitation_invalid", "invitation_used", "invitation_revoked", "invitation_expired", "already_member"]);

function SignInFirst({ signUp }: { signUp: boolean }) {
  return (
    <div className="card stack narrow">
      <p>You were invited to join a team. Sign in{signUp ? ", or create an account," : null} in this tab first: you then come back here to join.</p>
      <InvitationKept />
      <p className="copy">
        <Link href={withReturnTo("/signin", JOIN_PAGE)} className="button">
          Sign in
        </Link>
        {signUp ? (
          <Link href={withReturnTo("/signup", JOIN_PAGE)} className="button secondary">
            Sign up
          </Link>
        ) : null}
      </p>
    </div>
  );
}

export default async function JoinTeamPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const [user, query] = await Promise.all([currentUser(), searchParams]);
  const error = pageMessage(query.error);
  const final = typeof query.error === "string" && FINAL_ERRORS.has(query.error);
  return (
    <>
      <h1>Join a team</h1>
      {final ? (
        <DeadLink message={error} href="/teams" label="Your teams" />
      ) : (
        <>
          <ErrorAlert message={error} />
          {user === null ? <SignInFirst signUp={passwordSignUpOpen(config()) || passwordSignUpByInvitation(config())} /> : <JoinForm email={user.email} />}
        </>
      )}
    </>
  );
}
