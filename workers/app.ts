import { createRequestHandler, RouterContextProvider } from "react-router";
import { cloudflareContext } from "~/context";
import { getDb } from "~/lib/db.server";
import { sweepInactiveSessions } from "~/lib/auth/session.server";

const requestHandler = createRequestHandler(() => import("virtual:react-router/server-build"), import.meta.env.MODE);

export default {
  async fetch(request, env, ctx) {
    const context = new RouterContextProvider();
    context.set(cloudflareContext, { env, ctx });
    return requestHandler(request, context);
  },

  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(
      sweepInactiveSessions(getDb(env.DB)).then((revoked) => {
        if (revoked > 0) console.log(JSON.stringify({ event: "inactivity_sweep", revoked }));
      }),
    );
  },
} satisfies ExportedHandler<Env>;
