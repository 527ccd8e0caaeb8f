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

/** A Revoke button posting to `action`; `describedBy` names what it revokes, for screen readers. */
export function RevokeButton({ action, describedBy }: { action: string; describedBy: string }) {
  return (
    <form method="post" action={action}>
      <button type="submit" className="danger" aria-describedby={describedBy}>
        Revoke
      </button>
    </form>
  );
}
