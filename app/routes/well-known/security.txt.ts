// GET /.well-known/security.txt (RFC 9116): where to report a vulnerability.
import type { Route } from "./+types/security.txt";
import { WELL_KNOWN } from "~/lib/constants";
import { securityTxt } from "~/lib/site/well-known";
import { app } from "~/server/context.server";
import { getOnly } from "~/server/responses.server";

export const action = getOnly;

export function loader({ context }: Route.LoaderArgs) {
  return new Response(securityTxt(app(context).origin, Date.now()), {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": `public, max-age=${WELL_KNOWN.cacheSeconds}` },
  });
}
