import type { RouterContextProvider } from "react-router";
import { cloudflareContext } from "~/context";
import { getDb } from "../db.server";
import { parseEnv } from "../env.server";
import type { BillingDeps } from "./billing.server";

export function billingDeps(request: Request, context: Readonly<RouterContextProvider>): BillingDeps {
  const { env } = context.get(cloudflareContext);
  const appEnv = parseEnv(env);
  return { db: getDb(env.DB), env: appEnv, origin: appEnv.APP_URL ?? new URL(request.url).origin };
}
