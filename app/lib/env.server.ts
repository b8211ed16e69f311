// The Worker's configuration, parsed once per isolate with zod so a bad deploy fails loudly
// at the first request instead of misbehaving later.
import { z } from "zod";

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
});

const schema = baseSchema.superRefine((env, ctx) => {
  if (env.APP_ENV !== "production") return;
  for (const key of ["APP_URL", "MAIL_API_URL", "MAIL_API_KEY"] as const) {
    if (!env[key]) ctx.addIssue({ code: "custom", path: [key], message: `${key} is required in production` });
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
