// GET /api/v1/health: liveness for monitors (and the benchmark's baseline route).
import { getOnly } from "~/server/responses";

export const action = getOnly;

export function loader() {
  return Response.json({ ok: true }, { headers: { "Cache-Control": "no-store" } });
}
