// The Worker's configuration, parsed once per isolate with zod so a bad deploy fails loudly
// at the first request instead of misbehaving later.
import { z } from "./zod";

const baseSchema = z.object({
  APP_ENV: z.enum(["development", "test", "production"]).default("production"),
  // Signs access tokens. Local runs get a random one in .dev.vars (scripts/setup-local.mjs).
  JWT_SECRET: z.string().min(32, "JWT_SECRET must be at least 32 characters"),
  // Public origin used in e-mail links; required in production so a forged Host header
  // can never end up in a password-reset link.
  APP_URL: z.url().optional(),
  // Outgoing mail provider (Resend-compatible JSON API). Without it mail goes to the local outbox.
  MAIL_API_URL: z.url().optional(),
  MAIL_API_KEY: z.string().min(1).optional(),
  MAIL_FROM: z.string().min(3).default("Modelify <no-reply@modelify.dev>"),
  // Stripe. Without a secret key, price and a pk_ publishable key the site shows
  // "Payment System Not Configured" instead of checkout.
  STRIPE_SECRET_KEY: z.string().startsWith("sk_", "STRIPE_SECRET_KEY must start with sk_").optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().startsWith("whsec_", "STRIPE_WEBHOOK_SECRET must start with whsec_").optional(),
  STRIPE_PRICE_ID: z.string().startsWith("price_", "STRIPE_PRICE_ID must start with price_").optional(),
  // Local development and tests only: the Stripe stand-in's address (scripts/stripe-standin).
  STRIPE_API_BASE: z.url().optional(),
});

const schema = baseSchema.superRefine((env, ctx) => {
  if (env.APP_ENV !== "production") return;
  for (const key of ["APP_URL", "MAIL_API_URL", "MAIL_API_KEY"] as const) {
    if (!env[key]) ctx.addIssue({ code: "custom", path: [key], message: `${key} is required in production` });
  }
  if (env.STRIPE_API_BASE) ctx.addIssue({ code: "custom", path: ["STRIPE_API_BASE"], message: "STRIPE_API_BASE (the local stand-in) must not be set in production" });
  if (env.STRIPE_SECRET_KEY && !env.STRIPE_WEBHOOK_SECRET) {
    ctx.addIssue({ code: "custom", path: ["STRIPE_WEBHOOK_SECRET"], message: "STRIPE_WEBHOOK_SECRET is required when Stripe is configured" });
  }
});

export type AppEnv = z.infer<typeof baseSchema>;

const cache = new WeakMap<object, AppEnv>();

export function parseEnv(env: Env): AppEnv {
  const cached = cache.get(env);
  if (cached) return cached;
  const result = schema.safeParse(env);
  if (!result.success) {
    throw new Error(`Invalid Worker configuration: ${z.prettifyError(result.error)}`);
  }
  cache.set(env, result.data);
  return result.data;
}

export function isLocal(env: AppEnv): boolean {
  return env.APP_ENV !== "production";
}
