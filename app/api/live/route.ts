// GET /api/live — liveness: answers without touching anything (the benchmark's baseline).
export function GET(): Response {
  return Response.json({ ok: true }, { headers: { "Cache-Control": "no-store" } });
}
