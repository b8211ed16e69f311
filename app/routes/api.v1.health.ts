// GET /api/v1/health: liveness for monitors (and the benchmark's baseline route).
export function loader() {
  return Response.json({ ok: true }, { headers: { "Cache-Control": "no-store" } });
}
