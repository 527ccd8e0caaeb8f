// The floor the bench measures the service against: the emptiest route handler `next start`
// can serve (tests/load/bench.mjs builds this app and loads it like GET /api/live).
export const GET = () => Response.json({ ok: true });
