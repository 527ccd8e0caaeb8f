// Small pieces the pages' forms share.

/** A form's error message, announced to screen readers; nothing when there is none. */
export function ErrorAlert({ message }: { message: string | null }) {
  if (message === null) return null;
  return (
    <p role="alert" className="error">
      {message}
    </p>
  );
}

/** A field's error message, tied to its input by id (the input's aria-describedby); nothing when there is none. */
export function FieldError({ id, message }: { id: string; message: string | null | undefined }) {
  if (message === null || message === undefined) return null;
  return (
    <span id={id} role="alert" className="error">
      {message}
    </span>
  );
}

/** Says that something was done (after a redirect back to the page): announced, not alarming. */
export function DoneNotice({ message }: { message: string | null }) {
  if (message === null) return null;
  return (
    <p role="status" className="done">
      {message}
    </p>
  );
}

/**
 * Revoke in two steps: "Revoke…" opens a confirmation that says what stops working, and only
 * its button posts to `action`. A <details>, so it needs no JavaScript and no inline script;
 * `describedBy` names what it revokes, for screen readers.
 */
export function RevokeControl({ action, describedBy, what, consequence }: { action: string; describedBy: string; what: string; consequence: string }) {
  return (
    <details className="confirm">
      <summary aria-describedby={describedBy}>Revoke…</summary>
      <form method="post" action={action} className="stack">
        <p>
          Revoke {what}? {consequence} This cannot be undone.
        </p>
        <button type="submit" className="danger">
          Yes, revoke
        </button>
      </form>
    </details>
  );
}
