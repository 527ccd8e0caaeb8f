import type { Metadata } from "next";
import Link from "next/link";
import { isLinkError, pageMessage } from "@/lib/errors";
import { DeadLink } from "../dead-link";
import { DoneNotice, ErrorAlert } from "../form-parts";
import { LinkTokenField } from "../link-token-field";

export const metadata: Metadata = { title: "Confirm your email address" };

export default async function VerifyEmailPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  if (query.confirmed === "1") {
    return (
      <>
        <h1>Confirm your email address</h1>
        <DoneNotice message="Your email address is confirmed. Thank you." />
        <p>
          <Link href="/">Go to your projects</Link>
        </p>
      </>
    );
  }
  return (
    <>
      <h1>Confirm your email address</h1>
      {isLinkError(query.error) ? (
        <DeadLink message={pageMessage(query.error)} href="/settings/email" label="Send a new link from Settings → Email" />
      ) : (
        <form method="post" action="/auth/verify-email" className="card stack">
          <ErrorAlert message={pageMessage(query.error)} />
          <LinkTokenField purpose="verify_email" />
          <p>Confirm that the address this link was mailed to is your account&apos;s.</p>
          <button type="submit">Confirm my email address</button>
        </form>
      )}
    </>
  );
}
