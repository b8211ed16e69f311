// The site Worker: one request context per request, React Router for pages and the API, the
// security headers on every answer, and the hourly cron.
import { createRequestHandler, RouterContextProvider } from "react-router";
import { sweepExpiredExports, sweepOrphanedExports } from "~/lib/account/export.server";
import { sweepDeviceAuthorizations } from "~/lib/auth/device-authorization.server";
import { sweepInactiveSessions } from "~/lib/auth/session-activity.server";
import { reencryptTwoFactorSecrets } from "~/lib/auth/two-factor-rekey.server";
import { log, noteError, setLogSalt, withLogScope } from "~/lib/log/log.server";
import { sweepDeadLetters } from "~/lib/dead-letters/store.server";
import { getDb } from "~/lib/db.server";
import { twoFactorKeys } from "~/lib/keys";
import { sweepExpiredCounters } from "~/lib/limits/counters.server";
import { sweepExpiredChallenges } from "~/lib/auth/passkeys.server";
import { archiveOldUsage } from "~/lib/usage/archive.server";
import { pruneTeamActivity } from "~/lib/teams/activity.server";
import { appContext, configErrorContext, createAppContext, nonceContext } from "~/server/context.server";
import { metered } from "~/server/db.server";
import { logRequest, requestIdOf, withRequestId } from "~/server/request-log.server";
import { parseAppEnv, type AppEnv } from "~/server/env.server";
import { drainUnreadBody } from "~/server/requests.server";
import { KNOWN_METHODS, unknownMethod } from "~/server/responses.server";
import { cachedPage, cachedPageRoute, edgeCache, pageCacheKey, storePage } from "~/server/page-cache.server";
import { newNonce, withSecurityHeaders } from "~/server/security-headers.server";
import { reportUsageDirectly, USAGE_REPORT_PATH } from "~/server/usage-report.server";

const loadBuild = () => import("virtual:react-router/server-build");
type RequestHandler = ReturnType<typeof createRequestHandler>;
// Given a function, React Router derives its handler again on every request (so that the dev
// server picks up edits): flattening and compiling every route's path cost a quarter of an API
// request's CPU. A built Worker never changes its build, so it derives once per isolate.
let derived: RequestHandler | undefined;
const requestHandler: RequestHandler =
  import.meta.env.MODE === "development"
    ? createRequestHandler(loadBuild, import.meta.env.MODE)
    : async (request, context) => {
        derived ??= createRequestHandler(await loadBuild(), import.meta.env.MODE);
        return derived(request, context);
      };

function configure(env: Env): { appEnv: AppEnv; error: null } | { appEnv: null; error: string } {
  try {
    return { appEnv: parseAppEnv(env), error: null };
  } catch (error) {
    log.error("configuration_invalid", {}, error);
    return { appEnv: null, error: String(error) };
  }
}

export { UsageLedger } from "./usage-ledger";

export default {
  async fetch(request, env, ctx) {
    const started = performance.now();
    const { appEnv, error } = configure(env);
    setLogSalt(appEnv?.LOG_SALT);
    const requestId = requestIdOf(request);
    return withLogScope(requestId, async (scope) => {
      const nonce = newNonce();
      const cacheKey = appEnv ? pageCacheKey(request, import.meta.env.BUILD_ID) : null;
      // Parsed only where needed: the usage shortcut's CPU is counted (ADR 0015).
      const pathname = () => new URL(request.url).pathname;
      // The route of an answer the router did not give (the router's own is in scope.route).
      let fallbackRoute = "(unmatched)";
      // A stored page needs no request context, no router and no database.
      const hit = cacheKey ? await cachedPage(edgeCache(), cacheKey, nonce) : null;
      const { result, statements, ledgerCalls } = await metered(async () => {
        try {
          // A stored page answers without reading the request: its body (a GET may carry one) is
          // drained like any other unread body, or the local runtime sometimes never sends the
          // answer (the malformed-request corpus's GET with a 64 KB body to a stored page: 2 of 18 hung).
          if (hit) {
            fallbackRoute = cachedPageRoute(pathname());
            return drainUnreadBody(request, hit);
          }
          // Usage reports, one per model call of every desktop app: straight to their handler,
          // without the router's matching and middleware (ADR 0015).
          if (appEnv && request.method === "POST" && pathname() === USAGE_REPORT_PATH) {
            fallbackRoute = USAGE_REPORT_PATH;
            const response = await reportUsageDirectly(request, createAppContext(request, env, appEnv, ctx));
            return drainUnreadBody(request, response);
          }
          const context = new RouterContextProvider();
          context.set(nonceContext, nonce);
          if (appEnv) context.set(appContext, createAppContext(request, env, appEnv, ctx));
          else context.set(configErrorContext, error);
          if (!KNOWN_METHODS.has(request.method)) {
            fallbackRoute = "(unknown method)";
            return drainUnreadBody(request, unknownMethod(request));
          }
          const response = await requestHandler(request, context);
          if (cacheKey) return drainUnreadBody(request, await storePage(edgeCache(), cacheKey, response, nonce, (p) => ctx.waitUntil(p)));
          return drainUnreadBody(request, response);
        } catch (thrown) {
          // Nothing below should throw (the router answers its own errors), but if something
          // does, the visitor still gets an answer with its request id, and the log the stack.
          noteError(thrown);
          return new Response("Internal Server Error", { status: 500, headers: { "Content-Type": "text/plain; charset=utf-8" } });
        }
      });
      const durationMs = performance.now() - started;
      const response = withSecurityHeaders(request, result, {
        nonce,
        stripeOrigin: appEnv?.STRIPE_API_BASE ? new URL(appEnv.STRIPE_API_BASE).origin : null,
        // Vite's dev server only (the build and the tests run with CSP).
        development: import.meta.env.MODE === "development",
        pixel: Boolean(appEnv?.META_PIXEL_ID),
      });
      logRequest(scope, request, {
        status: response.status,
        durationMs,
        d1Statements: statements,
        ledgerCalls,
        fallbackRoute,
        ...(hit ? { cache: "hit" as const } : {}),
      });
      return withRequestId(response, requestId);
    });
  },

  async scheduled(controller, env, ctx) {
    setLogSalt(configure(env).appEnv?.LOG_SALT);
    const db = getDb(env.DB);
    const { appEnv } = configure(env);
    const started = performance.now();
    ctx.waitUntil(
      withLogScope(`cron-${controller.scheduledTime}`, () =>
        Promise.all([
          sweepInactiveSessions(db),
          sweepExpiredCounters(db),
          archiveOldUsage(db, env.USAGE_LEDGER, controller.scheduledTime),
          sweepDeviceAuthorizations(db),
          sweepDeadLetters(db, controller.scheduledTime),
          sweepExpiredChallenges(db),
          sweepExpiredExports({ db, bucket: env.BUCKET }, controller.scheduledTime),
          sweepOrphanedExports({ db, bucket: env.BUCKET }, controller.scheduledTime),
          pruneTeamActivity(db, controller.scheduledTime),
          // While TWO_FACTOR_KEY rotates: its "remaining" tells when the previous key can go.
          appEnv ? reencryptTwoFactorSecrets(db, twoFactorKeys(appEnv)) : null,
        ]).then(
          ([revoked, counters, archive, deviceCodes, deadLetters, passkeyChallenges, exports, orphanedExports, teamActivity, twoFactorRekey]) => {
            const durationMs = Math.round(performance.now() - started);
            log.info("hourly_sweep", {
              cron: controller.cron,
              durationMs,
              revoked,
              counters,
              archive,
              deviceAuthorizations: deviceCodes,
              deadLetters,
              passkeyChallenges,
              exports,
              orphanedExports,
              teamActivity,
              twoFactorRekey,
            });
          },
          (error: unknown) => log.error("hourly_sweep_failed", { cron: controller.cron }, error),
        ),
      ),
    );
  },
} satisfies ExportedHandler<Env>;
