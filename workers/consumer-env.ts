// The queue consumer's configuration: only what it uses (mail and SMS delivery, Stripe re-reads,
// the logs' salt, the dead letters' key and the webhooks' key). It needs no JWT secret and no public URL: links in
// messages were built by the site.
import { deadLetterShape, deploymentShape, logShape, mailShape, productionRules, type Requirements, smsShape, stripeShape, webhookShape } from "~/lib/config";
import { z } from "~/lib/zod";

const shape = z.object({
  ...deploymentShape,
  ...mailShape,
  ...smsShape,
  STRIPE_SECRET_KEY: stripeShape.STRIPE_SECRET_KEY,
  STRIPE_API_BASE: stripeShape.STRIPE_API_BASE,
  ...logShape,
  ...deadLetterShape,
  ...webhookShape,
});

/** What production needs beyond the shape's required fields (scripts/deploy.mjs checks the same). */
const requirements: Requirements = {
  production: ["MAIL_API_URL", "MAIL_API_KEY", "SMS_API_URL", "SMS_ACCOUNT_SID", "SMS_AUTH_TOKEN", "SMS_FROM", "LOG_SALT", "DEAD_LETTER_KEY", "WEBHOOK_KEY"],
  pairs: [],
};

/** The consumer's settings as `npm run deploy` checks them before a deploy. */
export const CONSUMER_SETTINGS = { shape: shape.shape, requirements };

const schema = shape.superRefine((env, ctx) => productionRules(env, ctx, requirements));

export type ConsumerConfig = z.infer<typeof shape>;

const cache = new WeakMap<object, ConsumerConfig>();

export function parseConsumerEnv(env: ConsumerEnv): ConsumerConfig {
  const cached = cache.get(env);
  if (cached) return cached;
  const result = schema.safeParse(env);
  if (!result.success) throw new Error(`Invalid consumer configuration: ${z.prettifyError(result.error)}`);
  cache.set(env, result.data);
  return result.data;
}
