// The site Worker's configuration, parsed once per isolate with zod, so a bad deploy fails
// loudly at the first request instead of misbehaving later.
import {
  deadLetterShape,
  webhookShape,
  deploymentShape,
  keyShape,
  logShape,
  mailShape,
  opsShape,
  pixelShape,
  productionRules,
  type Requirements,
  stripeShape,
  supportShape,
} from "~/lib/config";
import { z } from "~/lib/zod";

const shape = z.object({
  ...deploymentShape,
  ...keyShape,
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
  ...webhookShape,
});

/** Beyond the shape's required fields: what production needs, and what needs another (scripts/deploy.mjs checks the same). */
const requirements: Requirements = {
  production: ["APP_URL", "MAIL_API_URL", "MAIL_API_KEY", "LOG_SALT", "DEAD_LETTER_KEY", "WEBHOOK_KEY"],
  pairs: [
    ["OPS_TOKEN", "OPS_TOKEN_PREVIOUS", "always"],
    ["STRIPE_WEBHOOK_SECRET", "STRIPE_SECRET_KEY", "production"],
  ],
};

/** The site's settings as `npm run deploy` checks them before a deploy. */
export const SITE_SETTINGS = { shape: shape.shape, requirements };

const schema = shape.superRefine((env, ctx) => productionRules(env, ctx, requirements));

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
