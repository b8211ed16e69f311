import { OPENAPI } from "~/lib/usage/openapi";

export function loader() {
  return Response.json(OPENAPI, { headers: { "Cache-Control": "public, max-age=300" } });
}
