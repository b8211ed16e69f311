import type { Route } from "./+types/openapi.json";
import { getOnly, refuseOptions } from "~/server/responses.server";
import { buildOpenApi } from "~/lib/openapi";

export const action = getOnly;

// Built once per isolate: the description only changes with a deploy.
let document: ReturnType<typeof buildOpenApi> | undefined;

export function loader({ request }: Route.LoaderArgs) {
  refuseOptions(request);
  document ??= buildOpenApi();
  return Response.json(document, { headers: { "Cache-Control": "public, max-age=300" } });
}
