import { TEAM_NAME_MAX } from "@/lib/field-lengths";

/** What only the team's owners may do: rename it, and delete it while it has no projects. */
export function OwnerControls({ teamId, name }: { teamId: string; name: string }) {
  return (
    <section aria-labelledby="manage-team">
      <h2 id="manage-team">Manage the team</h2>
      <details className="more">
        <summary>Rename…</summary>
        <form method="post" action={`/teams/${teamId}/rename`} className="card stack narrow">
          <label>
            New name
            <input name="name" type="text" required maxLength={TEAM_NAME_MAX} defaultValue={name} autoComplete="off" />
          </label>
          <button type="submit">Rename</button>
        </form>
      </details>
      <p className="muted">A team with projects cannot be deleted: that would cut off every client linked to them.</p>
      <details className="confirm">
        <summary>Delete the team…</summary>
        <form method="post" action={`/teams/${teamId}/delete`} className="stack">
          <p className="long-words">Delete “{name}”? Its memberships and open invitations go with it. This cannot be undone.</p>
          <button type="submit" className="danger">
            Yes, delete the team
          </button>
        </form>
      </details>
    </section>
  );
}
