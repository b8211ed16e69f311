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

export default {
  async fetch(request, env, ctx) {
    const started = performance.now();
    const counter: QueryCounter = { statements: 0 };
    const appEnv = configured(env);
    const nonce = newNonce();
    const context = new RouterContextProvider();
    context.set(cloudflareContext, { env: { ...env, DB: countingD1(env.DB, counter) }, ctx });
    context.set(nonceContext, nonce);
    const response = await requestHandler(request, context);
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
