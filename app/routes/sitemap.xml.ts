// GET /sitemap.xml: the public pages.
import type { Route } from "./+types/sitemap.xml";
import { sitemapXml } from "~/lib/site/crawl";
import { app } from "~/server/context.server";
import { getOnly } from "~/server/responses.server";

export const action = getOnly;

export function loader({ context }: Route.LoaderArgs) {
  return new Response(sitemapXml(app(context).origin), {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
