// React Router's default Workers entry, plus the CSP nonce on every script it renders and the
// hydration modules fetched after the first paint (server/hydrate-after-paint.ts), and what the
// request's log line needs from the router: the matched route and the unexpected error. Unlike
// the default, every visitor (not only crawlers) gets the whole document at once.
// React's string build of react-dom/server (the one it ships for Bun), not the edge build
// "react-dom/server" resolves to on Workers: the edge build encodes every attribute name, value
// and text into a Uint8Array of its own, the string build hands them to the destination as they
// are, and the document is one join. Its size measure is made a length by a build plugin
// (scripts/vite-server-render.ts). Workers run it with nodejs_compat (util, stream); the one
// Bun API in it (Bun.hash) is reached only by React Server Components' form actions, which this
// site does not use. ADR 0027 and docs/performance.md have the figures.
import type { ReactNode } from "react";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server.bun";
import type { EntryContext, HandleErrorFunction, RouterContextProvider, ServerInstrumentation } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { NonceProvider } from "./components/nonce";
import { setPrerenderer } from "./components/prerendered";
import { log, logScope, noteError } from "./lib/log/log.server";
import { hydrateAfterFirstPaint } from "./server/hydrate-after-paint.server";
import { nonceContext } from "./server/context.server";

// React Router rejects a loader's promises still pending after this, so every render ends: no
// timer of our own aborts it (one set and cleared per request was 1-2% of a page's JavaScript).
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

/**
 * Renders `node` whole, once its last boundary is ready, into one string: React pipes it into an
 * array of strings joined once (no back-pressure, nothing to flush).
 */
function renderWhole(node: ReactNode, options: Pick<RenderToPipeableStreamOptions, "nonce" | "onShellReady" | "onError">): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const chunks: string[] = [];
    // The destination React writes the finished markup into: only write and end are used.
    const destination = {
      write(chunk: string) {
        chunks.push(chunk);
        return true;
      },
      end() {
        resolve(chunks.join(""));
      },
      destroy(error: unknown) {
        reject(error);
      },
      on() {
        return destination;
      },
    };
    const render = renderToPipeableStream(node, {
      ...options,
      // React outlines a finished Suspense boundary larger than this into a later chunk that a
      // script moves into place; a site dialog (lazy, inside one) must stay in the HTML where a
      // browser without JavaScript can see it.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onShellError(error: unknown) {
        reject(error);
      },
      onAllReady() {
        render.pipe(destination as unknown as NodeJS.WritableStream);
      },
    });
  });
}

// The page parts that are the same for every request, rendered once per isolate
// (components/prerendered.tsx). A part that fails is logged and rendered live from then on.
setPrerenderer({
  async render(part) {
    // Any error fails the part, even one React would leave to the browser (inside a boundary):
    // its markup would be the fallback's.
    let failed = false;
    const html = await renderWhole(part, {
      onError(error: unknown) {
        failed = true;
        const { type } = part as { type: { displayName?: string; name?: string } };
        log.error("prerender_failed", { part: type.displayName ?? type.name }, error);
      },
    });
    if (failed) throw new Error("a prerendered part failed to render");
    return html;
  },
  live() {
    return logScope()?.partsLive === true;
  },
  reused() {
    const scope = logScope();
    if (scope) scope.prerenderedParts = (scope.prerenderedParts ?? 0) + 1;
  },
});

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const nonce = loadContext.get(nonceContext);
  let shellRendered = false;
  // The status is the shell's: an error in a boundary after it (the page still renders, the
  // boundary on the client) is logged, not turned into a 500 for the whole page.
  let status = responseStatusCode;
  // Every page is whole once its loaders are done (no deferred data): waiting for the last
  // boundary costs no time to first byte, and the rewrite below sees one string.
  const html = await renderWhole(
    <NonceProvider value={nonce}>
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
    </NonceProvider>,
    {
      nonce,
      onShellReady() {
        shellRendered = true;
        status = responseStatusCode;
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        // Errors inside the shell reach handleError through React Router. Later ones (a boundary
        // that failed after it) happen before the answer goes out: into the request's line too.
        if (shellRendered) noteError(error);
      },
    },
  );
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(hydrateAfterFirstPaint(html), { headers: responseHeaders, status });
}
