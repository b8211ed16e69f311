// GET /api/v1/health: liveness for monitors (and the benchmark's baseline route).
import type { Route } from "./+types/health";
import { getOnly, refuseOptions } from "~/server/responses.server";

export const action = getOnly;

export function loader({ request }: Route.LoaderArgs) {
  refuseOptions(request);
  return Response.json({ ok: true }, { headers: { "Cache-Control": "no-store" } });
}
