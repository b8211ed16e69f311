import { createRequestHandler, RouterContextProvider } from "react-router";
import { cloudflareContext, nonceContext } from "~/context";
import { getDb } from "~/lib/db.server";
import { sweepInactiveSessions } from "~/lib/auth/session.server";
import { countingD1, type QueryCounter } from "~/lib/d1-counter";
import { isLocal, parseEnv, type AppEnv } from "~/lib/env.server";
import { sweepExpiredCounters } from "~/lib/limits/counters.server";
import { newNonce, withSecurityHeaders } from "~/server/security-headers";

const requestHandler = createRequestHandler(() => import("virtual:react-router/server-build"), import.meta.env.MODE);

function configured(env: Env): AppEnv | null {
  try {
    return parseEnv(env);
  } catch {
    return null; // the root middleware shows "App Initialization Error"
  }
}

// Bytes of an unread request body read and dropped before answering (see afterDrain).
const DRAIN_MAX_BYTES = 16 * 1024 * 1024;

/**
 * Reads what is left of a request body the route did not need (a 401 before the body, a GET
 * with a body) before the answer goes out. The local runtime (wrangler dev's entry worker)
 * otherwise fails such exchanges with its own 500 once the client's upload is cut off, and a
 * body that breaks HTTP framing gets a 400 here instead of a 500 there.
 */
async function afterDrain(body: ReadableStream<Uint8Array>, response: Response): Promise<Response> {
  const reader = body.getReader();
  let read = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return response;
      read += value.byteLength;
      if (read > DRAIN_MAX_BYTES) {
        await reader.cancel();
        return response;
      }
    }
  } catch {
    return new Response("Malformed request body", { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
}

// Methods the site answers; anything else (PROPFIND, TRACE, …) stops here with a plain 405
// instead of reaching the router.
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

function unknownMethod(request: Request): Response {
  const headers = { Allow: "GET, HEAD, POST" };
  return new URL(request.url).pathname.startsWith("/api/")
    ? Response.json({ error: "Method not allowed" }, { status: 405, headers })
    : new Response("Method not allowed", { status: 405, headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" } });
}

export default {
  async fetch(request, env, ctx) {
    const started = performance.now();
    const counter: QueryCounter = { statements: 0 };
    const appEnv = configured(env);
    const nonce = newNonce();
    const context = new RouterContextProvider();
    context.set(cloudflareContext, { env: { ...env, DB: countingD1(env.DB, counter) }, ctx });
    context.set(nonceContext, nonce);
    let response = KNOWN_METHODS.has(request.method) ? await requestHandler(request, context) : unknownMethod(request);
    if (request.body && !request.bodyUsed) response = await afterDrain(request.body, response);
    // Timings and statement counts help locally and in tests; in production they would tell
    // anyone how much work an answer took (e.g. whether an address has an account).
    const local = appEnv ? isLocal(appEnv) : false;
    return withSecurityHeaders(request, response, {
      nonce,
      stripeOrigin: appEnv?.STRIPE_API_BASE ? new URL(appEnv.STRIPE_API_BASE).origin : null,
      // Vite's dev server only (the build and the tests run with CSP).
      development: import.meta.env.MODE === "development",
      serverTiming: local ? `app;dur=${(performance.now() - started).toFixed(1)}, d1;desc="statements";dur=${counter.statements}` : null,
    });
  },

  async scheduled(_controller, env, ctx) {
    const db = getDb(env.DB);
    ctx.waitUntil(
      Promise.all([sweepInactiveSessions(db), sweepExpiredCounters(db)]).then(([revoked, counters]) => {
        console.log(JSON.stringify({ event: "hourly_sweep", revoked, counters }));
      }),
    );
  },
} satisfies ExportedHandler<Env>;
