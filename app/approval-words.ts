// Words the approval pages share, on the server and in the browser (app/init/[id]/live-status.tsx).

/** Waiting for a decision: the same status line on the init page and a browser-approved link's page. */
export const WAITING = "Waiting for your decision";
