import { getOnly } from "~/server/http";
import { OPENAPI } from "~/lib/usage/openapi";

export const action = getOnly;

export function loader() {
  return Response.json(OPENAPI, { headers: { "Cache-Control": "public, max-age=300" } });
}
