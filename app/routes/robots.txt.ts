// GET /robots.txt (it used to fall through to the catch-all's redirect home).
import type { Route } from "./+types/robots.txt";
import { robotsTxt } from "~/lib/site/crawl";
import { app } from "~/server/context.server";
import { getOnly } from "~/server/responses.server";

export const action = getOnly;

export function loader({ context }: Route.LoaderArgs) {
  return new Response(robotsTxt(app(context).origin), { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" } });
}
