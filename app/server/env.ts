// The site Worker's configuration, parsed once per isolate with zod, so a bad deploy fails
// loudly at the first request instead of misbehaving later.
import { deadLetterShape, deploymentShape, logShape, mailShape, opsShape, pixelShape, productionRules, stripeShape, supportShape } from "~/lib/config";
import { z } from "~/lib/zod";

const shape = z.object({
  ...deploymentShape,
  // Signs access tokens. Local runs get a random one in .dev.vars (scripts/lib.mjs).
  JWT_SECRET: z.string().min(32, "JWT_SECRET must be at least 32 characters"),
  // Public origin used in e-mail links; required in production so a forged Host header can never
  // end up in a password-reset link.
  APP_URL: z.url().optional(),
  ...mailShape,
  ...stripeShape,
  ...supportShape,
  ...pixelShape,
  ...opsShape,
  ...logShape,
  ...deadLetterShape,
});

const schema = shape.superRefine((env, ctx) => {
  productionRules(env, ctx, ["APP_URL", "MAIL_API_URL", "MAIL_API_KEY", "LOG_SALT", "DEAD_LETTER_KEY"]);
  if (env.OPS_TOKEN_PREVIOUS && !env.OPS_TOKEN) {
    ctx.addIssue({ code: "custom", path: ["OPS_TOKEN_PREVIOUS"], message: "OPS_TOKEN_PREVIOUS is only accepted beside a new OPS_TOKEN" });
  }
  if (env.APP_ENV === "production" && env.STRIPE_SECRET_KEY && !env.STRIPE_WEBHOOK_SECRET) {
    ctx.addIssue({ code: "custom", path: ["STRIPE_WEBHOOK_SECRET"], message: "STRIPE_WEBHOOK_SECRET is required when Stripe is configured" });
  }
});

export type AppEnv = z.infer<typeof shape>;

const cache = new WeakMap<object, AppEnv>();

/** The parsed configuration, or an Error naming every problem. */
export function parseAppEnv(env: Env): AppEnv {
  const cached = cache.get(env);
  if (cached) return cached;
  const result = schema.safeParse(env);
  if (!result.success) throw new Error(`Invalid Worker configuration: ${z.prettifyError(result.error)}`);
  cache.set(env, result.data);
  return result.data;
}
