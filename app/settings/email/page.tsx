import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentUser } from "@/lib/api/page-session";
import { withReturnTo } from "@/lib/api/return-to";
import { emailStatus } from "@/lib/auth/email-verification";
import { config } from "@/lib/config";
import { pageMessage } from "@/lib/errors";
import { DoneNotice, ErrorAlert } from "../../form-parts";
import { LocalTime } from "../../local-time";
import { SettingsNav } from "../settings-nav";

export const metadata: Metadata = { title: "Email" };

export default async function EmailSettingsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await currentUser();
  if (user === null) redirect(withReturnTo("/signin", "/settings/email"));
  const [status, query] = await Promise.all([emailStatus(user.id), searchParams]);
  const mail = config().email;
  return (
    <>
      <h1>Email</h1>
      <SettingsNav />
      <ErrorAlert message={pageMessage(query.error)} />
      <DoneNotice message={query.sent === "1" ? `We mailed a new link to ${status.email}. It works for 24 hours; older links no longer work.` : null} />
      <section className="card stack">
        <p>
          Your account&apos;s address: <strong>{status.email}</strong>
        </p>
        {status.verifiedAt === null ? (
          <p>
            Not confirmed yet.
            {mail?.verificationRequired ? " You cannot approve requests until it is." : " Clients that learn your email are told it is not confirmed."}
          </p>
        ) : (
          <p>
            Confirmed <LocalTime value={status.verifiedAt} />.
          </p>
        )}
        {mail === null ? (
          <p className="muted">
            This service sends no email (its administrators have not set up a mail server): no confirmation links, no password reset by mail, and no security notices.
          </p>
        ) : (
          <>
            <p className="muted">
              We mail this address when your password changes, a passkey is added, you report an approval as not yours, or a request is approved from another network than the client&apos;s.
            </p>
            {status.verifiedAt === null ? (
              <form method="post" action="/settings/email/verify">
                <button type="submit">Send a new confirmation link</button>
              </form>
            ) : null}
          </>
        )}
      </section>
    </>
  );
}
