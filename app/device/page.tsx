import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentUser } from "@/lib/api/page-session";
import { withReturnTo } from "@/lib/api/return-to";
import { pageMessage } from "@/lib/errors";
import { USER_CODE_INPUT_MAX } from "@/lib/field-lengths";
import { ErrorAlert } from "../form-parts";

// /device: OAuth's verification page (RFC 8628 §3.3, `verification_uri`). The person types the
// code their command-line client shows and goes on to that request's approval page.

export const metadata: Metadata = { title: "Enter a code" };

export default async function DevicePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await currentUser();
  if (user === null) redirect(withReturnTo("/signin", "/device"));
  const error = pageMessage((await searchParams).error);
  return (
    <>
      <h1>Enter a code</h1>
      <p className="muted">Type the code your terminal shows. Next you see who is asking, and approve or deny.</p>
      <ErrorAlert message={error} />
      <form method="post" action="/device/enter" className="card stack">
        <label>
          Code shown in your terminal
          <input name="user_code" required autoFocus autoComplete="off" autoCapitalize="characters" spellCheck={false} maxLength={USER_CODE_INPUT_MAX} placeholder="XXXX-XXXX" />
        </label>
        <button type="submit">Continue</button>
      </form>
    </>
  );
}
