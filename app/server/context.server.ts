// One request context, made once by the Worker entry (workers/app.ts) and read by every loader,
// action and API route: parsed configuration and the bindings they act on.
import { createContext, type RouterContextProvider } from "react-router";
import type { AuthState } from "~/lib/auth/session.server";
import { getStripe, type Stripe } from "~/lib/billing/stripe.server";
import type { Db } from "~/lib/db.server";
import type { LedgerNamespace } from "~/lib/usage/ledger/api";
import { type D1RequestSession, startD1Session } from "./d1-session.server";
import { requestDb, requestLedgers } from "./db.server";
import type { AppEnv } from "./env.server";

export type AppContext = {
  env: AppEnv;
  /** Drizzle over this request's D1 session (`d1`): every read and write of the request. */
  db: Db;
  /** The request's D1 session and the bookmark it brought (ADR 0019). */
  d1: D1RequestSession;
  kv: KVNamespace;
  queue: Queue;
  bucket: R2Bucket;
  stripe: Stripe | null;
  /** Origin for links in e-mails and Stripe: APP_URL when configured, else the request's own. */
  origin: string;
  ip: string | null;
  userAgent: string | null;
  ctx: ExecutionContext;
  /** The per-user limiter of the usage API (wrangler.toml [[ratelimits]]). */
  usageLimiter: RateLimit;
  /** The accounts' usage ledgers (Durable Objects, ADR 0020). */
  ledgers: LedgerNamespace;
};

export const appContext = createContext<AppContext | null>(null);

/** Set when the configuration does not parse: pages show "App Initialization Error". */
export const configErrorContext = createContext<string | null>(null);

/** The signed-in user (or null), resolved once per request by the web layout's middleware. */
export const authContext = createContext<AuthState>({ user: null, session: null });

/** This response's CSP nonce: the inline scripts React Router renders carry it. */
export const nonceContext = createContext<string>("");

export function createAppContext(request: Request, env: Env, appEnv: AppEnv, ctx: ExecutionContext): AppContext {
  const d1 = startD1Session(env.DB, request);
  return {
    env: appEnv,
    db: requestDb(env.DB, d1.session),
    d1,
    kv: env.KV,
    queue: env.EVENTS,
    bucket: env.BUCKET,
    stripe: getStripe(appEnv),
    origin: appEnv.APP_URL ?? new URL(request.url).origin,
    ip: request.headers.get("CF-Connecting-IP"),
    userAgent: request.headers.get("User-Agent"),
    ctx,
    usageLimiter: env.USAGE_RATE_LIMITER,
    ledgers: requestLedgers(env.USAGE_LEDGER),
  };
}

/** The request context; only a misconfigured Worker has none (and its pages say so first). */
export function app(context: Readonly<RouterContextProvider>): AppContext {
  const value = context.get(appContext);
  if (!value) throw new Error(context.get(configErrorContext) ?? "The request context is missing");
  return value;
}
