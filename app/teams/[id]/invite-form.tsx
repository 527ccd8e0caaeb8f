"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { EMAIL_MAX } from "@/lib/field-lengths";
import type { CreatedInvitation } from "@/lib/teams/invitations";
import { ROLE_LABELS, type TeamRole } from "@/lib/teams/roles";
import { CopyButton } from "../../copy-button";
import { ErrorAlert } from "../../form-parts";

const isCreatedInvitation = (body: unknown): body is CreatedInvitation =>
  typeof body === "object" && body !== null && "url" in body && typeof body.url === "string" && "emailed" in body && typeof body.emailed === "boolean";

const errorOf = (body: unknown): string | null =>
  typeof body === "object" && body !== null && "error" in body && typeof body.error === "string" ? body.error : null;

/**
 * The invite form. It posts with fetch and shows the answer in place, as the new-token form does:
 * the invitation's link carries its token, so it is on screen once and never put in a URL, a
 * cookie or the page the server renders. `roles`: those the viewer may give.
 */
export function InviteForm({ teamId, roles }: { teamId: string; roles: readonly TeamRole[] }) {
  const router = useRouter();
  const [created, setCreated] = useState<(CreatedInvitation & { email: string }) | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const fields = new URLSearchParams();
    for (const [name, value] of new FormData(form)) {
      if (typeof value === "string") fields.append(name, value);
    }
    setSending(true);
    setError(null);
    setCreated(null);
    try {
      const response = await fetch(`/teams/${encodeURIComponent(teamId)}/invitations/create`, {
        method: "POST",
        body: fields,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        cache: "no-store",
      });
      const body: unknown = await response.json();
      if (response.ok && isCreatedInvitation(body)) {
        setCreated({ ...body, email: fields.get("email") ?? "" });
        form.reset();
        router.refresh();
      } else {
        setError(errorOf(body) ?? "The invitation could not be made. Please try again.");
      }
    } catch {
      setError("The invitation could not be made. Check your connection and try again.");
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <form onSubmit={submit} className="card stack narrow" aria-labelledby="invite-heading">
        <h2 id="invite-heading">Invite someone</h2>
        <ErrorAlert message={error} />
        <label>
          Email
          <input name="email" type="email" required maxLength={EMAIL_MAX} autoComplete="off" spellCheck={false} />
        </label>
        <label>
          Role
          <select name="role" defaultValue="member">
            {roles.map((role) => (
              <option key={role} value={role}>
                {ROLE_LABELS[role]}
              </option>
            ))}
          </select>
        </label>
        <label className="check">
          <input type="checkbox" name="any_email" value="yes" aria-describedby="any-email-hint" />
          Any account may accept
        </label>
        <p id="any-email-hint" className="hint">
          Otherwise only the account with this email may join with the link.
        </p>
        <button type="submit" disabled={sending}>
          {sending ? "Inviting…" : "Invite"}
        </button>
      </form>
      {created ? (
        <section className="card stack new-token" aria-labelledby="invitation-heading">
          <h2 id="invitation-heading" className="long-words">Invitation for {created.email}</h2>
          <p className="warning">Copy the link now: it will not be shown again. It works once, for 7 days.</p>
          <label>
            Invitation link
            <input
              type="text"
              className="secret"
              value={created.url}
              readOnly
              autoFocus
              spellCheck={false}
              autoComplete="off"
              onFocus={(event) => event.currentTarget.select()}
            />
          </label>
          <CopyButton text={created.url} label="Copy link" />
          <p className="muted long-words">{created.emailed ? `It is also on its way to ${created.email} by mail.` : "It was not mailed (mail is not set up here): send it yourself."}</p>
        </section>
      ) : null}
    </>
  );
}
