import Link from "next/link";
import { ErrorAlert } from "./form-parts";

/** A mailed link that no longer works (used, replaced, expired, not ours): why, and the way to a new one; no form to fill in for nothing. */
export function DeadLink({ message, href, label }: { message: string | null; href: string; label: string }) {
  return (
    <div className="card stack">
      <ErrorAlert message={message} />
      <p>
        <Link href={href}>{label}</Link>
      </p>
    </div>
  );
}
