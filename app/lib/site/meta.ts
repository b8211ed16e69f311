// A page's <title> and description. A route's `meta` replaces the root's, so every page names
// its description here rather than losing the site's (search engines and Lighthouse read it).
export const SITE_TITLE = "Modelify: every AI model and agent in one desktop app";
const SITE_DESCRIPTION =
  "Modelify is a desktop AI chat app for Windows, macOS and Linux. Bring your own API keys and use 160+ models and 120+ specialised agents in one place.";

export type MetaTag = { title: string } | { name: string; content: string };

export function pageMeta(title: string, { description = SITE_DESCRIPTION, noindex = false }: { description?: string; noindex?: boolean } = {}): MetaTag[] {
  return [{ title }, { name: "description", content: description }, ...(noindex ? [{ name: "robots", content: "noindex" }] : [])];
}
