import type { Metadata } from "next";
import Link from "next/link";
import { pageMessage } from "@/lib/errors";

// Where the authorization endpoint sends a person whose application sent a client_id or
// redirect_uri that cannot be trusted (lib/api/operations/authorize.ts): RFC 6749 §4.1.2.1 says
// to tell the person, never to redirect to an unchecked address.

export const metadata: Metadata = { title: "Sign-in request refused" };

export default async function AuthorizationRefusedPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const message = pageMessage((await searchParams).error) ?? "The application sent a sign-in request this site cannot answer.";
  return (
    <>
      <h1>Sign-in request refused</h1>
      <div className="card stack">
        <p role="alert">{message}</p>
        <p className="muted">Nothing was approved and the application was told nothing.</p>
        <p>
          <Link href="/">Go to the home page</Link>
        </p>
      </div>
    </>
  );
}
