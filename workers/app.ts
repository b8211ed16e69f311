import { createRequestHandler, RouterContextProvider } from "react-router";
import { cloudflareContext } from "~/context";
import { getDb } from "~/lib/db.server";
import { sweepInactiveSessions } from "~/lib/auth/session.server";
import { countingD1, type QueryCounter } from "~/lib/d1-counter";
import { sweepExpiredCounters } from "~/lib/limits/counters.server";

const requestHandler = createRequestHandler(() => import("virtual:react-router/server-build"), import.meta.env.MODE);

export default {
  async fetch(request, env, ctx) {
    const started = performance.now();
    const counter: QueryCounter = { statements: 0 };
    const context = new RouterContextProvider();
    context.set(cloudflareContext, { env: { ...env, DB: countingD1(env.DB, counter) }, ctx });
    const response = await requestHandler(request, context);
    const timing = `app;dur=${(performance.now() - started).toFixed(1)}, d1;desc="statements";dur=${counter.statements}`;
    try {
      response.headers.append("Server-Timing", timing);
      return response;
    } catch {
      // Immutable headers (e.g. a Response.redirect): copy once.
      const copy = new Response(response.body, response);
      copy.headers.append("Server-Timing", timing);
      return copy;
    }
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
