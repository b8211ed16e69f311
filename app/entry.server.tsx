// React Router's Cloudflare entry as its template writes it (renderToReadableStream; crawlers wait
// for the whole document), plus the CSP nonce on every script it renders and what the request's
// log line needs from the router: the matched route and the unexpected error.
import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import type { EntryContext, HandleErrorFunction, RouterContextProvider, ServerInstrumentation } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { NonceProvider } from "./components/nonce";
import { logScope, noteError } from "./lib/log/log.server";
import { nonceContext } from "./server/context.server";

// React Router rejects a loader's promises still pending after this, so every render ends.
export const streamTimeout = 5_000;

/**
 * The request's route for its log line: the matched pattern (/dashboard/profile/export/:id),
 * which groups requests the way an operator asks about them and carries no id or token.
 */
export const instrumentations: ServerInstrumentation[] = [
  {
    handler(handler) {
      handler.instrument({
        async request(handle) {
          const result = await handle();
          const scope = logScope();
          // React Router joins the matched paths without the leading slash.
          if (scope && result.meta) scope.route = `/${result.meta.pattern.replace(/^\/+/, "")}`;
        },
      });
    },
  },
];

/**
 * An unexpected error of a loader, an action or the render (thrown Responses are answers, not
 * errors): it goes into the request's log line, with its stack, instead of a line of its own.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  // An error React Router wrapped in a 500 (its ErrorResponse keeps the original as `error`).
  const inner = isRouteErrorResponse(error) ? (error as { error?: unknown }).error : undefined;
  noteError(inner ?? error);
};

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const nonce = loadContext.get(nonceContext);
  let shellRendered = false;
  const userAgent = request.headers.get("user-agent");

  const body = await renderToReadableStream(
    <NonceProvider value={nonce}>
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
    </NonceProvider>,
    {
      nonce,
      signal: request.signal,
      // React moves a finished Suspense boundary larger than this into a later chunk that a script
      // puts in place: a site dialog (lazy, inside one) must stay in the HTML, where a browser
      // without JavaScript sees it.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onError(error: unknown) {
        responseStatusCode = 500;
        // Errors inside the shell reach handleError through React Router; later ones (a boundary
        // that failed after it) go into the request's log line.
        if (shellRendered) noteError(error);
      },
    },
  );
  shellRendered = true;

  // Crawlers and SPA mode wait for all content to load before the answer starts.
  if ((userAgent && isbot(userAgent)) || routerContext.isSpaMode) await body.allReady;

  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(body, { headers: responseHeaders, status: responseStatusCode });
}
