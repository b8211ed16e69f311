// The configuration the domain code needs, as zod shapes both Workers' env schemas are built
// from: each Worker parses only what it uses (app/server/env.ts, workers/consumer-env.ts).
import { emailAddress } from "./email-address";
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
  SUPPORT_INBOX: emailAddress().default("support@modelify.dev"),
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
  // The Team plan's price: one seat a month (TEAMS.seatPriceUsd), bought with a quantity. Without
  // it teams cannot pay (their billing page says so); the Pro plan does not need it.
  STRIPE_TEAM_PRICE_ID: z.string().startsWith("price_", "STRIPE_TEAM_PRICE_ID must start with price_").optional(),
  // Local development and tests only: the Stripe stand-in's address (tools/stripe-standin).
  STRIPE_API_BASE: z.url().optional(),
};

// A secret's value, and the slot for the value before it: still accepted for what it signed until
// a rotation is over (app/lib/keys.ts, docs/runbook.md). Blank values count as unset.
const secret = (name: string) => z.string().min(32, `${name} must be at least 32 characters`);
const optionalSecret = (name: string) => z.union([z.literal("").transform(() => undefined), secret(name)]).optional();

// The operators' bearer token for /api/ops/* (e.g. the move of D1's usage history, ADR 0020). A
// secret; unset, those routes do not exist (404). OPS_TOKEN_PREVIOUS is still accepted while a new
// OPS_TOKEN is rolled out, so the token rotates without an outage.
export const opsShape = {
  OPS_TOKEN: optionalSecret("OPS_TOKEN"),
  OPS_TOKEN_PREVIOUS: optionalSecret("OPS_TOKEN_PREVIOUS"),
};

// The site's own keys, one per purpose so that each rotates alone (ADR 0026). Local runs get random
// ones in .dev.vars (scripts/lib.mjs).
export const keyShape = {
  // Signs access tokens (their `kid` names the key), refresh-token MACs and the pending two-factor sign-in.
  JWT_SECRET: secret("JWT_SECRET"),
  JWT_SECRET_PREVIOUS: optionalSecret("JWT_SECRET_PREVIOUS"),
  // Signs download links.
  DOWNLOAD_LINK_SECRET: secret("DOWNLOAD_LINK_SECRET"),
  DOWNLOAD_LINK_SECRET_PREVIOUS: optionalSecret("DOWNLOAD_LINK_SECRET_PREVIOUS"),
  // The HMAC of phone codes kept in KV.
  PHONE_CODE_SECRET: secret("PHONE_CODE_SECRET"),
  PHONE_CODE_SECRET_PREVIOUS: optionalSecret("PHONE_CODE_SECRET_PREVIOUS"),
  // Encrypts authenticator secrets at rest. Each value names its key; the hourly cron re-encrypts
  // those under the previous key, so the previous one can go once none is left.
  TWO_FACTOR_KEY: secret("TWO_FACTOR_KEY"),
  TWO_FACTOR_KEY_PREVIOUS: optionalSecret("TWO_FACTOR_KEY_PREVIOUS"),
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

// Encrypts each alert webhook's signing secret at rest (ADR 0033): the site seals it when the
// webhook is added, the consumer opens it to sign each delivery, so both Workers hold it. Without
// it no webhook can be added. Each value names its key; WEBHOOK_KEY_PREVIOUS still opens values
// sealed before a rotation (ADR 0026).
export const webhookShape = {
  WEBHOOK_KEY: z.string().min(32, "WEBHOOK_KEY must be at least 32 characters").optional(),
  WEBHOOK_KEY_PREVIOUS: z
    .union([z.literal("").transform(() => undefined), z.string().min(32, "WEBHOOK_KEY_PREVIOUS must be at least 32 characters")])
    .optional(),
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

/**
 * What a Worker needs beyond the fields its schema requires everywhere: `production` names are
 * required in production, and each `[needed, when]` pair once `when` is set. Declared once per
 * Worker (app/server/env.ts, workers/consumer-env.ts): the env schema refuses to start without
 * them, and `npm run deploy` checks the same names against `wrangler secret list` before it
 * changes anything (scripts/deploy.mjs).
 */
export type Requirements = {
  production: readonly string[];
  pairs: readonly (readonly [needed: string, when: string, where: "always" | "production"])[];
};

/** The messages of every requirement not met; `isSet` says whether a setting has a value. */
export function unmetRequirements(requirements: Requirements, isSet: (name: string) => boolean, production: boolean): Array<{ name: string; message: string }> {
  const unmet: Array<{ name: string; message: string }> = [];
  if (production) {
    for (const name of requirements.production) if (!isSet(name)) unmet.push({ name, message: `${name} is required in production` });
  }
  for (const [needed, when, where] of requirements.pairs) {
    if ((where === "always" || production) && isSet(when) && !isSet(needed)) unmet.push({ name: needed, message: `${needed} is required when ${when} is set` });
  }
  return unmet;
}

/** The fields a schema's shape requires in every environment (no default, not optional). */
export function alwaysRequired(shape: Record<string, z.ZodType>): string[] {
  return Object.entries(shape)
    .filter(([, field]) => !field.safeParse(undefined).success)
    .map(([name]) => name);
}

/** Rules every Worker's production configuration must meet. */
export function productionRules(
  env: Deployment & Partial<MailConfig> & Partial<StripeConfig> & Partial<SmsConfig>,
  ctx: z.RefinementCtx,
  requirements: Requirements,
) {
  const isSet = (name: string) => Boolean((env as Record<string, unknown>)[name]);
  for (const { name, message } of unmetRequirements(requirements, isSet, env.APP_ENV === "production")) {
    ctx.addIssue({ code: "custom", path: [name], message });
  }
  if (env.APP_ENV !== "production") return;
  if (env.STRIPE_API_BASE)
    ctx.addIssue({ code: "custom", path: ["STRIPE_API_BASE"], message: "STRIPE_API_BASE (the local stand-in) must not be set in production" });
}
