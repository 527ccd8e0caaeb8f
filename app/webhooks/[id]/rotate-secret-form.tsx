"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { ShownOnce } from "../../copy-button";
import { ErrorAlert } from "../../form-parts";

const secretOf = (body: unknown): string | null => (typeof body === "object" && body !== null && "secret" in body && typeof body.secret === "string" ? body.secret : null);

const errorOf = (body: unknown): string | null =>
  typeof body === "object" && body !== null && "error" in body && typeof body.error === "string" ? body.error : null;

/**
 * Rotate secret. It posts with fetch and shows the new secret in place, as the new-endpoint form
 * does: on screen once, never in a URL, a cookie or a rendered page. During the overlap every
 * request is signed with both secrets, so the receiver can change over without missing one.
 */
export function RotateSecretForm({ endpointId, maxOverlapHours }: { endpointId: string; maxOverlapHours: number }) {
  const router = useRouter();
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const fields = new URLSearchParams({ overlap_hours: String(new FormData(event.currentTarget).get("overlap_hours") ?? "") });
    setSending(true);
    setError(null);
    setSecret(null);
    try {
      const response = await fetch(`/webhooks/${encodeURIComponent(endpointId)}/rotate`, {
        method: "POST",
        body: fields,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        cache: "no-store",
      });
      const body: unknown = await response.json();
      const rotated = response.ok ? secretOf(body) : null;
      if (rotated === null) {
        setError(errorOf(body) ?? "The secret could not be rotated. Please try again.");
        return;
      }
      setSecret(rotated);
      router.refresh();
    } catch {
      setError("The secret could not be rotated. Check your connection and try again.");
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <details className="more">
        <summary>Rotate secret…</summary>
        <form onSubmit={submit} className="card stack" aria-label="Rotate the signing secret">
          <ErrorAlert message={error} />
          <label>
            Hours the current secret keeps signing
            <input name="overlap_hours" type="number" required min={0} max={maxOverlapHours} step={1} defaultValue={24} inputMode="numeric" aria-describedby="overlap-hint" />
            <span className="hint" id="overlap-hint">
              Meanwhile each request carries a signature with each secret, so your receiver verifies with either. 0 stops the current secret at once; at most{" "}
              {maxOverlapHours} (a week).
            </span>
          </label>
          <button type="submit" disabled={sending}>
            {sending ? "Rotating…" : "Rotate secret"}
          </button>
        </form>
      </details>
      {secret ? (
        <section className="card stack new-token" aria-labelledby="rotated-heading">
          <h3 id="rotated-heading">Secret rotated</h3>
          <p className="warning">Copy the new secret now: it is shown once, never again. Give it to your receiver before the current one stops signing.</p>
          <ShownOnce label="New signing secret" copyLabel="Copy new secret" value={secret} autoFocus />
        </section>
      ) : null}
    </>
  );
}
