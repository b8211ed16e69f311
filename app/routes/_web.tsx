// Every browser page and form: the configuration must have parsed, mutations must come from our
// own pages, and the session cookies are resolved once for the loaders and actions below.
// (The JSON API is outside this layout: it authenticates with bearer tokens and signatures.)
import { data, Outlet } from "react-router";
import type { Route } from "./+types/_web";
import { resolveWebAuth, isSameOriginMutation } from "~/server/auth.server";
import { app, authContext, configErrorContext } from "~/server/context.server";
import { bookmarkCookie } from "~/server/d1-session.server";

function withCookies(response: Response, cookies: string[]): Response {
  if (cookies.length === 0) return response;
  let res = response;
  try {
    for (const c of cookies) res.headers.append("Set-Cookie", c);
  } catch {
    // Some responses (e.g. Response.redirect) have immutable headers: copy once, then retry.
    res = new Response(response.body, response);
    for (const c of cookies) res.headers.append("Set-Cookie", c);
  }
  return res;
}

const webMiddleware: Route.MiddlewareFunction = async ({ request, context }, next) => {
  if (context.get(configErrorContext)) throw data({ kind: "init" }, { status: 503 });
  if (!isSameOriginMutation(request)) {
    throw data({ kind: "forbidden", message: "This request came from another site and was refused." }, { status: 403 });
  }
  const { auth, setCookies } = await resolveWebAuth(request, app(context));
  context.set(authContext, auth);
  return withCookies(await next(), setCookies);
};

// Once everything below has read and written: the browser's D1 bookmark, so that its next
// request reads at least what this one wrote (ADR 0019).
const bookmarkMiddleware: Route.MiddlewareFunction = async ({ request, context }, next) => {
  const response = await next();
  const cookie = bookmarkCookie(request, response, app(context).d1, context.get(authContext).user !== null);
  return cookie ? withCookies(response, [cookie]) : response;
};

export const middleware: Route.MiddlewareFunction[] = [webMiddleware, bookmarkMiddleware];

export default function Web() {
  return <Outlet />;
}
