// The configuration the domain code needs, as zod shapes both Workers' env schemas are built
// from: each Worker parses only what it uses (app/server/env.ts, workers/consumer-env.ts).
import { PIXEL_ID_PATTERN } from "./marketing/pixel";
import { z } from "./zod";

export const deploymentShape = {
  // Production by default: local runs override it to "development" in .dev.vars, so a deploy can
  // never expose the development outbox by accident.
  APP_ENV: z.enum(["development", "test", "production"]).default("production"),
};

export const mailShape = {
  // A Resend-compatible JSON API. Without it mail goes to the local outbox.
  MAIL_API_URL: z.url().optional(),
  MAIL_API_KEY: z.string().min(1).optional(),
  MAIL_FROM: z.string().min(3).default("Modelify <no-reply@modelify.dev>"),
};

export const pixelShape = {
  // The optional advertising pixel (Meta's pixel id, digits). Unset: no pixel, no consent question.
  // An empty value (a blank line in .dev.vars) counts as unset.
  META_PIXEL_ID: z
    .union([z.literal("").transform(() => undefined), z.string().regex(PIXEL_ID_PATTERN, "META_PIXEL_ID must be the pixel's numeric id")])
    .optional(),
};

export const supportShape = {
  // Where Contact Support messages are mailed (and the address the site shows for support).
  SUPPORT_INBOX: z.email().default("support@modelify.dev"),
};

export const smsShape = {
  // A Twilio-compatible Messages API (base URL, e.g. https://api.twilio.com). Without all four,
  // text messages go to the local outbox.
  SMS_API_URL: z.url().optional(),
  // Part of the request path: letters and digits only.
  SMS_ACCOUNT_SID: z
    .string()
    .regex(/^[A-Za-z0-9]{1,64}$/, "SMS_ACCOUNT_SID must be letters and digits")
    .optional(),
  SMS_AUTH_TOKEN: z.string().min(1).optional(),
  // The sending number (E.164), an alphanumeric sender id or a messaging service id.
  SMS_FROM: z.string().min(1).max(64).optional(),
};

export const stripeShape = {
  // Without a secret key, price and a pk_ publishable key the site shows "Payment System Not
  // Configured" instead of checkout.
  STRIPE_SECRET_KEY: z.string().startsWith("sk_", "STRIPE_SECRET_KEY must start with sk_").optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().startsWith("whsec_", "STRIPE_WEBHOOK_SECRET must start with whsec_").optional(),
  STRIPE_PRICE_ID: z.string().startsWith("price_", "STRIPE_PRICE_ID must start with price_").optional(),
  // Local development and tests only: the Stripe stand-in's address (tools/stripe-standin).
  STRIPE_API_BASE: z.url().optional(),
};

// The operators' bearer token for /api/ops/* (e.g. the move of D1's usage history, ADR 0020). A
// secret; unset, those routes do not exist (404). OPS_TOKEN_PREVIOUS is still accepted while a new
// OPS_TOKEN is rolled out, so the token rotates without an outage. Blank values count as unset.
const opsToken = (name: string) => z.union([z.literal("").transform(() => undefined), z.string().min(32, `${name} must be at least 32 characters`)]).optional();
export const opsShape = {
  OPS_TOKEN: opsToken("OPS_TOKEN"),
  OPS_TOKEN_PREVIOUS: opsToken("OPS_TOKEN_PREVIOUS"),
};

// Salts the accounts' hashes in the logs (lib/log): without it, anyone holding an account's id
// could find its lines. Required in production; local runs and tests use a fixed salt.
export const logShape = {
  LOG_SALT: z.string().min(16, "LOG_SALT must be at least 16 characters").optional(),
};

// Encrypts the original body kept beside a dead letter so that an admin can replay it (ADR 0024).
// Its own key, so that reading the database (a backup, Time Travel) gives no message text. Both
// Workers hold it: the consumer encrypts, the site decrypts on replay. Without it dead letters
// keep only their redacted view and cannot be replayed.
export const deadLetterShape = {
  DEAD_LETTER_KEY: z.string().min(32, "DEAD_LETTER_KEY must be at least 32 characters").optional(),
};

const mailConfig = z.object(mailShape);
const stripeConfig = z.object(stripeShape);
const smsConfig = z.object(smsShape);
export type MailConfig = z.infer<typeof mailConfig>;
export type SmsConfig = z.infer<typeof smsConfig>;
export type StripeConfig = z.infer<typeof stripeConfig>;
export type Deployment = { APP_ENV: "development" | "test" | "production" };

/** Development and test run on a developer's machine or in CI; production is the real thing. */
export function isLocal(env: Deployment): boolean {
  return env.APP_ENV !== "production";
}

/** Rules every Worker's production configuration must meet. */
export function productionRules(env: Deployment & Partial<MailConfig> & Partial<StripeConfig> & Partial<SmsConfig>, ctx: z.RefinementCtx, required: string[]) {
  if (env.APP_ENV !== "production") return;
  for (const key of required) {
    if (!(env as Record<string, unknown>)[key]) ctx.addIssue({ code: "custom", path: [key], message: `${key} is required in production` });
  }
  if (env.STRIPE_API_BASE)
    ctx.addIssue({ code: "custom", path: ["STRIPE_API_BASE"], message: "STRIPE_API_BASE (the local stand-in) must not be set in production" });
}
