// What crawlers are told: robots.txt (the public site, not the signed-in or one-time pages) and
// the sitemap of the public pages. Pure, so the route only adds the origin.
import { LEGAL_DOCS } from "./legal";
import { PROVIDERS } from "./providers";

export const PUBLIC_PATHS = [
  "/",
  "/pricing",
  "/changelog",
  "/early-access",
  "/contact",
  "/api-setup",
  "/api-reference",
  ...PROVIDERS.map((p) => `/api-setup?provider=${p.id}`),
  ...LEGAL_DOCS.map((doc) => `/legal/${doc}`),
];

// The dashboard is not listed: without a session it answers with a redirect to sign-in, so a
// crawler finds nothing there to index, and a Disallow would keep it from learning even that
// (a disallowed URL can still be indexed bare from a link to it). Listing it also failed
// Lighthouse's "is crawlable" check on every dashboard page.
const PRIVATE_PREFIXES = ["/api/", "/auth/callback", "/auth/reset-password", "/auth/success", "/activate", "/billing/", "/downloads/", "/dev/"];

export function robotsTxt(origin: string): string {
  return ["User-agent: *", "Allow: /", ...PRIVATE_PREFIXES.map((p) => `Disallow: ${p}`), "", `Sitemap: ${origin}/sitemap.xml`, ""].join("\n");
}

const escapeXml = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export function sitemapXml(origin: string): string {
  const urls = PUBLIC_PATHS.map((path) => `  <url><loc>${escapeXml(`${origin}${path}`)}</loc></url>`);
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">', ...urls, "</urlset>", ""].join("\n");
}
