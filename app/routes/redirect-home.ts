// /waitlist, /fast-waitlist, /old-waitlist, /debug, /main and every unknown page go home: they
// were pages of an earlier site. Unknown files and /.well-known/ documents answer 404 instead, so
// that a program asking for one (a crawler, a browser's favicon, an OAuth library) is not handed
// the home page as if it were the thing it asked for.
import { redirect } from "react-router";
import type { Route } from "./+types/redirect-home";
import { isPagePath } from "~/lib/site/well-known";

// `url` (the page's address), not `request.url`: a link followed in the browser asks for
// `/debug.data`, which is the page /debug, not a file.
function answer({ url }: Route.LoaderArgs | Route.ActionArgs): Response {
  if (isPagePath(url.pathname)) return redirect("/");
  return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

export const loader = answer;
export const action = answer;
