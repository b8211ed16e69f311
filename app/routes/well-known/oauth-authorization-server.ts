// GET /.well-known/oauth-authorization-server: RFC 8414 metadata, so that an OAuth library finds
// the device and token endpoints from the issuer alone (issue 30).
import type { Route } from "./+types/oauth-authorization-server";
import { authorizationServerMetadata, issuerOf } from "~/lib/auth/oauth";
import { WELL_KNOWN } from "~/lib/constants";
import { app } from "~/server/context.server";
import { getOnly } from "~/server/responses.server";

export const action = getOnly;

export function loader({ context }: Route.LoaderArgs) {
  return Response.json(authorizationServerMetadata(issuerOf(app(context).origin)), {
    headers: { "Cache-Control": `public, max-age=${WELL_KNOWN.cacheSeconds}` },
  });
}
