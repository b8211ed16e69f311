// Every table of the platform: accounts and sessions, subscriptions, usage, budgets, downloads, early access, audit.
// Times are unix epoch milliseconds (integer); calendar days are 'YYYY-MM-DD' in UTC.
// Money from usage reports is stored as integer micro-dollars so sums never drift.
import { sql } from "drizzle-orm";
import { type AnySQLiteColumn, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { SUBSCRIPTION_STATUSES } from "./subscription-statuses";

const now = sql`(unixepoch('subsec') * 1000)`;
const createdAt = () => integer("created_at").notNull().default(now);
const updatedAt = () => integer("updated_at").notNull().default(now);

export const users = sqliteTable("users", {
  id: text("id").primaryKey(),
  email: text("email").notNull().unique(), // stored lower-cased
  passwordHash: text("password_hash").notNull(),
  emailConfirmedAt: integer("email_confirmed_at"),
  role: text("role", { enum: ["user", "admin"] })
    .notNull()
    .default("user"),
  // Sign-up metadata (names, phone, security question and the answer's hash) that
  // becomes the profile at first sign-in.
  metadata: text("metadata", { mode: "json" }).$type<SignUpMetadata>().notNull().default(sql`'{}'`),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export type SignUpMetadata = {
  first_name?: string;
  last_name?: string;
  full_name?: string;
  initial?: string | null;
  phone_number?: string;
  security_question?: string;
  security_answer_hash?: string;
};

export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    client: text("client", { enum: ["web", "desktop"] }).notNull(),
    refreshTokenHash: text("refresh_token_hash").notNull().unique(),
    previousRefreshTokenHash: text("previous_refresh_token_hash"),
    rotatedAt: integer("rotated_at"),
    expiresAt: integer("expires_at").notNull(),
    revokedAt: integer("revoked_at"),
    revokedReason: text("revoked_reason"),
    userAgent: text("user_agent"),
    /** Last time the session renewed its access token (every 15 minutes while in use). */
    lastSeenAt: integer("last_seen_at"),
    // A desktop app signed in through the browser (device authorization, ADR 0018): its session
    // is that device's key, and these describe the device as the app named it.
    deviceName: text("device_name"),
    devicePlatform: text("device_platform", { enum: ["windows", "macos", "linux"] }),
    appVersion: text("app_version"),
    appInstanceId: text("app_instance_id"),
    /** Last usage report the consumer stored from this key, and the country it came from. */
    lastUsedAt: integer("last_used_at"),
    lastCountry: text("last_country"),
    /**
     * When every factor of the account was last shown in this session (a sign-in with the
     * password and code, the end of a reset, or "Confirm it's you"): the recent proof that
     * changes to the account's ways in ask for (lib/auth/recent-proof.server.ts). Null: never.
     */
    provenAt: integer("proven_at"),
    /**
     * The team a device key reports under (issue 50, ADR 0038): chosen at the device's approval,
     * one context per key; null is personal. The consumer counts a report for the team only while
     * the key's owner is still a member.
     */
    teamId: text("team_id").references((): AnySQLiteColumn => teams.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_prev_hash_idx").on(t.previousRefreshTokenHash)],
);

// A pending sign-in of the desktop app through the browser (RFC 8628). Both codes are stored as
// SHA-256 digests; the row is single use (status moves pending → approved | denied → used).
export const deviceAuthorizations = sqliteTable(
  "device_authorizations",
  {
    id: text("id").primaryKey(),
    deviceCodeHash: text("device_code_hash").notNull().unique(),
    userCodeHash: text("user_code_hash").notNull().unique(),
    clientId: text("client_id").notNull(),
    deviceName: text("device_name").notNull(),
    platform: text("platform", { enum: ["windows", "macos", "linux"] }).notNull(),
    appVersion: text("app_version").notNull(),
    appInstanceId: text("app_instance_id").notNull(),
    status: text("status", { enum: ["pending", "approved", "denied", "used"] })
      .notNull()
      .default("pending"),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    sessionId: text("session_id"),
    /** The team the approver chose for the device's key (null: personal); checked again at the token exchange. */
    teamId: text("team_id").references((): AnySQLiteColumn => teams.id, { onDelete: "set null" }),
    intervalSeconds: integer("interval_seconds").notNull(),
    lastPolledAt: integer("last_polled_at"),
    /** Set by the poll that was answered slow_down (RFC 8628 3.5), so the answer knows it. */
    slowedAt: integer("slowed_at"),
    approvedAt: integer("approved_at"),
    expiresAt: integer("expires_at").notNull(),
    /**
     * The country the code was asked from (request.cf.country), shown on /device with the time so
     * that a user sent someone else's code can tell it is not their own (RFC 8628 5.4).
     */
    requestCountry: text("request_country"),
    createdAt: createdAt(),
  },
  (t) => [index("device_authorizations_expires_idx").on(t.expiresAt)],
);

export const oneTimeTokens = sqliteTable(
  "one_time_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type", { enum: ["signup", "recovery", "email_change", "email_change_cancel"] }).notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    // Sign-up links: SHA-256 of a nonce held in an HttpOnly cookie by the browser that proved the
    // pending password (it signed up, or signed in to the unconfirmed account). That browser
    // confirms with one click; any other must type the password (no account pre-hijacking).
    proofHash: text("proof_hash"),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
    createdAt: createdAt(),
  },
  (t) => [index("one_time_tokens_user_idx").on(t.userId, t.type)],
);

// Local mail adapter: messages land here when no provider is configured.
export const outbox = sqliteTable("outbox", {
  id: text("id").primaryKey(),
  channel: text("channel", { enum: ["email", "sms"] })
    .notNull()
    .default("email"),
  to: text("to").notNull(),
  subject: text("subject").notNull(),
  text: text("text").notNull(),
  links: text("links", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
  createdAt: createdAt(),
});

export const userProfiles = sqliteTable(
  "user_profiles",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: "cascade" }),
    username: text("username").unique(),
    email: text("email").notNull(),
    phoneNumber: text("phone_number"),
    phoneVerified: integer("phone_verified", { mode: "boolean" }).notNull().default(false),
    /** When the last verification code went out: the phone is "pending" while that code lives. */
    phoneCodeSentAt: integer("phone_code_sent_at"),
    /** A new address waiting for its confirmation link; the account's e-mail changes only then. */
    pendingEmail: text("pending_email"),
    avatarUrl: text("avatar_url"),
    coverPhotoUrl: text("cover_photo_url"),
    firstName: text("first_name"),
    lastName: text("last_name"),
    initial: text("initial"),
    bio: text("bio"),
    company: text("company"),
    website: text("website"),
    location: text("location"),
    timezone: text("timezone").notNull().default("UTC"),
    /**
     * When the account answered which zone to count its days in (the dashboard's question, or a
     * zone chosen on the profile): null while never asked, so the question is asked once (issue 48).
     */
    timeZoneConfirmedAt: integer("time_zone_confirmed_at"),
    /** The locale numbers and dates are written in (app/lib/locale.ts); null: the browser's (Accept-Language). */
    locale: text("locale"),
    securityQuestion: text("security_question"),
    securityAnswerHash: text("security_answer_hash"),
    usernameLastChanged: integer("username_last_changed"),
    preferences: text("preferences", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
    lastLoginAt: integer("last_login_at"),
    lastActivityAt: integer("last_activity_at"),
    earlyAccessStatus: text("early_access_status"),
    earlyAccessGrantedAt: integer("early_access_granted_at"),
    earlyAccessExpiresAt: integer("early_access_expires_at"),
    stripeCustomerId: text("stripe_customer_id").unique(),
    paymentMethodLast4: text("payment_method_last_4"),
    /**
     * Whether any of the Stripe customer's subscriptions ever had a trial, as Stripe said when asked
     * (null: not asked yet). Set once, then kept true by the sync: the subscriptions row holds only
     * the latest subscription, so its trial_start forgets an earlier trial.
     */
    trialUsed: integer("trial_used", { mode: "boolean" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // Usernames are unique without regard to case: "Ada" and "ada" are one name.
  (t) => [uniqueIndex("user_profiles_username_lower_idx").on(sql`lower(${t.username})`)],
);

export const subscriptions = sqliteTable("subscriptions", {
  id: text("id").primaryKey(),
  userId: text("user_id")
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: "cascade" }),
  status: text("status", { enum: SUBSCRIPTION_STATUSES }).notNull(),
  stripeSubscriptionId: text("stripe_subscription_id").unique(),
  stripeCustomerId: text("stripe_customer_id"),
  stripePriceId: text("stripe_price_id"),
  currentPeriodStart: integer("current_period_start"),
  currentPeriodEnd: integer("current_period_end"),
  trialStart: integer("trial_start"),
  trialEnd: integer("trial_end"),
  cancelAt: integer("cancel_at"),
  canceledAt: integer("canceled_at"),
  endedAt: integer("ended_at"),
  metadata: text("metadata", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const waitlist = sqliteTable(
  "waitlist",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull().unique(),
    firstName: text("first_name"),
    lastName: text("last_name"),
    company: text("company"),
    earlyAccessGranted: integer("early_access_granted", { mode: "boolean" }).notNull().default(false),
    /** When an admin granted early access (a key was created and mailed). */
    grantedAt: integer("granted_at"),
    /** Who referred this person (an address, or a campaign code), if anyone: it raises the priority. */
    referredBy: text("referred_by"),
    priorityScore: integer("priority_score").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index("waitlist_priority_idx").on(t.earlyAccessGranted, t.priorityScore, t.createdAt)],
);

// The 16-character code itself is a secret: only its hash and last four characters are kept.
export const activationKeys = sqliteTable(
  "activation_keys",
  {
    id: text("id").primaryKey(),
    codeHash: text("code_hash").notNull().unique(),
    codeLast4: text("code_last_4").notNull(),
    waitlistId: text("waitlist_id").references(() => waitlist.id, { onDelete: "set null" }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    isUsed: integer("is_used", { mode: "boolean" }).notNull().default(false),
    usedAt: integer("used_at"),
    expiresAt: integer("expires_at").notNull(),
    /** Where the key was mailed, when it was (grants); unassigned keys are handed out by admins. */
    sentTo: text("sent_to"),
    revokedAt: integer("revoked_at"),
    revokedBy: text("revoked_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("activation_keys_user_idx").on(t.userId), index("activation_keys_created_idx").on(t.createdAt)],
);

// Usage reports and their per-account aggregates live in each account's usage ledger, a Durable
// Object (ADR 0020). D1 keeps only the cross-account figures the ledgers feed. (model_usage,
// secure_usage_reports and the D1-era aggregates were moved into the ledgers and dropped by
// migration 0014.)

// The cross-account figures (the admin's totals, the funnel's usage step), fed by the usage
// ledgers (ADR 0020): each account's whole totals of a day, as its ledger last reported them.
// `version` is the ledger's: a late write of older figures never replaces newer ones.
export const usageRollup = sqliteTable(
  "usage_rollup",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    date: text("date").notNull(),
    requests: integer("requests").notNull(),
    tokens: integer("tokens").notNull(),
    costMicros: integer("cost_micros").notNull(),
    version: integer("version").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.date] }), index("usage_rollup_date_idx").on(t.date)],
);

// Accounts that have a usage ledger: when their first and latest report arrived, and when the
// cron last moved old raw rows out of their ledger.
export const usageAccounts = sqliteTable(
  "usage_accounts",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    firstReportAt: integer("first_report_at").notNull(),
    lastReportAt: integer("last_report_at").notNull(),
    archivedAt: integer("archived_at"),
  },
  (t) => [index("usage_accounts_first_idx").on(t.firstReportAt), index("usage_accounts_archived_idx").on(t.archivedAt)],
);

// One published installer build. The file is in R2 under `r2Key`; sizes, versions and checksums
// shown anywhere come from these rows.
export const releases = sqliteTable(
  "releases",
  {
    id: text("id").primaryKey(),
    /** The download option id: win-x64, win-x86, mac-intel, mac-apple-silicon, linux-x64, linux-arm64. */
    optionId: text("option_id").notNull(),
    platform: text("platform", { enum: ["windows", "mac", "linux"] }).notNull(),
    architecture: text("architecture", { enum: ["x64", "x86", "intel", "apple-silicon", "arm64"] }).notNull(),
    version: text("version").notNull(),
    fileName: text("file_name").notNull(),
    r2Key: text("r2_key").notNull(),
    byteSize: integer("byte_size").notNull(),
    sha256: text("sha256").notNull(),
    /** The build offered first for its platform (the spec's recommended options, unless an admin chose otherwise). */
    recommended: integer("recommended", { mode: "boolean" }).notNull().default(false),
    /** Demo builds (published by `npm start` locally) say so wherever they are listed. */
    demo: integer("demo", { mode: "boolean" }).notNull().default(false),
    publishedBy: text("published_by"),
    publishedAt: integer("published_at").notNull().default(now),
  },
  (t) => [uniqueIndex("releases_option_version_idx").on(t.optionId, t.version), index("releases_option_published_idx").on(t.optionId, t.publishedAt)],
);

export const downloadHistory = sqliteTable(
  "download_history",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    platform: text("platform").notNull(),
    architecture: text("architecture").notNull(),
    /** The build that was downloaded (null for history written before releases existed). */
    releaseId: text("release_id").references(() => releases.id, { onDelete: "set null" }),
    downloadedAt: integer("downloaded_at").notNull().default(now),
  },
  (t) => [index("download_history_user_idx").on(t.userId, t.downloadedAt)],
);

export const budgets = sqliteTable("budgets", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  monthlyBudget: real("monthly_budget").notNull(),
  dailyBudget: real("daily_budget").notNull(),
  // The lowest of alert_thresholds: what code from before the list read (a rollback keeps alerting).
  alertThreshold: integer("alert_threshold").notNull(),
  // Whole percents, ascending (issue 49); each alerts once per period.
  alertThresholds: text("alert_thresholds", { mode: "json" }).$type<number[]>().notNull().default(sql`'[]'`),
  notificationsEnabled: integer("notifications_enabled", { mode: "boolean" }).notNull(),
  // Hard caps (issue 49, ADR 0032): at the budget, the desktop app's entitlement claims are refused
  // until the budget starts again, instead of only an alert being sent.
  monthlyHardCap: integer("monthly_hard_cap", { mode: "boolean" }).notNull().default(false),
  dailyHardCap: integer("daily_hard_cap", { mode: "boolean" }).notNull().default(false),
  updatedAt: updatedAt(),
});

// Hard caps of one model or one device key a month (ADR 0032): `target` is the cap's one key
// ("model:<provider>/<name>", URI-encoded parts, or "device:<session id>"), so an account has at
// most one cap per model and per device; the other columns say the same in parts.
export const budgetCaps = sqliteTable(
  "budget_caps",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["model", "device"] }).notNull(),
    target: text("target").notNull(),
    modelName: text("model_name"),
    modelProvider: text("model_provider"),
    deviceId: text("device_id"),
    limitUsd: real("limit_usd").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("budget_caps_target_idx").on(t.userId, t.target)],
);

// A model health rule (issue 49): alert when one model's error rate (percent) or average latency
// (ms) over an hour passes `threshold`. Decided by the account's usage ledger at ingest.
export const alertRules = sqliteTable(
  "alert_rules",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["error_rate", "latency"] }).notNull(),
    threshold: integer("threshold").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("alert_rules_user_idx").on(t.userId)],
);

// Where an account's alerts are also POSTed (ADR 0033). The signing secret is shown once and kept
// encrypted under WEBHOOK_KEY, prefixed with that key's id (it must be read back to sign).
export const webhooks = sqliteTable(
  "webhooks",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    secretEnc: text("secret_enc").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("webhooks_user_idx").on(t.userId)],
);

// Each attempt to deliver an alert to a webhook: the answer's status (null when none came), or why
// it failed. `event_id` is the alert's delivery id (the same on every attempt).
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    attempt: integer("attempt").notNull(),
    statusCode: integer("status_code"),
    error: text("error"),
    ok: integer("ok", { mode: "boolean" }).notNull(),
    deliveredAt: integer("delivered_at").notNull(),
  },
  (t) => [index("webhook_deliveries_webhook_idx").on(t.webhookId, t.deliveredAt)],
);

// Queue messages that failed for good, kept for an admin to look into (Dashboard → Dead letters):
// `body` is the redacted view (lib/queue-redaction.ts); `original` is the message itself,
// encrypted with DEAD_LETTER_KEY, kept only while it can be replayed and deleted with the row
// on replay, discard or expiry (ADR 0024).
export const deadLetters = sqliteTable(
  "dead_letters",
  {
    id: text("id").primaryKey(),
    queue: text("queue").notNull(),
    body: text("body").notNull(),
    original: text("original"),
    attempts: integer("attempts").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("dead_letters_created_idx").on(t.createdAt)],
);

export const processedMessages = sqliteTable("processed_messages", {
  id: text("id").primaryKey(),
  kind: text("kind").notNull(),
  processedAt: integer("processed_at").notNull().default(now),
});

// Every change an admin makes to someone's subscription outside Stripe, and what the system does
// on its own behalf (actor null), such as cancelling a second live subscription.
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: text("id").primaryKey(),
    actorUserId: text("actor_user_id").references(() => users.id, { onDelete: "cascade" }),
    targetUserId: text("target_user_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action").notNull(),
    details: text("details", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("audit_log_target_idx").on(t.targetUserId, t.createdAt)],
);

// Messages sent through Contact Support: kept until an admin closes them (and after, for the
// record), and mailed to the support mailbox. user_id is set when the sender was signed in.
export const supportMessages = sqliteTable(
  "support_messages",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    email: text("email").notNull(),
    subject: text("subject").notNull(),
    message: text("message").notNull(),
    priority: text("priority", { enum: ["low", "medium", "high"] })
      .notNull()
      .default("medium"),
    status: text("status", { enum: ["open", "closed"] })
      .notNull()
      .default("open"),
    closedAt: integer("closed_at"),
    closedBy: text("closed_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("support_messages_status_idx").on(t.status, t.createdAt)],
);

// First-party marketing events (docs/decisions/0013-site-dialogs-support-and-funnel.md): what
// happened and when, the signed-in user's id when there is one, the page for browser events. No
// address, name, IP or cookie. Milestones that happen once per account (sign-up, confirmation,
// trial, paid) carry a dedupe key, so a retried message or webhook never counts twice.
export const marketingEvents = sqliteTable(
  "marketing_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    occurredAt: integer("occurred_at").notNull(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    path: text("path"),
    dedupeKey: text("dedupe_key").unique(),
  },
  (t) => [index("marketing_events_name_time_idx").on(t.name, t.occurredAt)],
);

// Atomic attempt counters (sign-in and sign-up lockouts, per-IP guards, mail caps): one row per
// key, updated by a single INSERT … ON CONFLICT DO UPDATE … RETURNING, so parallel requests never
// lose a count (docs/decisions/0003-lockouts.md). Expired rows are swept hourly.
export const attemptCounters = sqliteTable(
  "attempt_counters",
  {
    key: text("key").primaryKey(),
    count: integer("count").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("attempt_counters_expiry_idx").on(t.expiresAt)],
);

// Stripe Checkout Sessions we opened, so a second click reuses the open one instead of starting
// a second subscription (and a second trial).
export const checkoutSessions = sqliteTable(
  "checkout_sessions",
  {
    id: text("id").primaryKey(), // Stripe's cs_… id
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    expiresAt: integer("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("checkout_sessions_user_idx").on(t.userId, t.createdAt)],
);

// Two-factor sign-in with an authenticator app (RFC 6238, issue 29). One row per user: the TOTP
// secret, encrypted under TWO_FACTOR_KEY and prefixed with that key's id (it must be read back to
// check codes, so it cannot be hashed; app/lib/auth/two-factor-secret.ts); enabled_at is null while the setup waits for its first code. last_step is the
// 30 s time step of the last accepted code: a code is accepted once (no replay inside its window).
export const twoFactor = sqliteTable("two_factor", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  secretEnc: text("secret_enc").notNull(),
  enabledAt: integer("enabled_at"),
  lastStep: integer("last_step"),
  createdAt: createdAt(),
});

// Ten recovery codes per enabling, stored only as SHA-256 hashes (they are 80 random bits), each usable once.
export const twoFactorRecoveryCodes = sqliteTable(
  "two_factor_recovery_codes",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: integer("used_at"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.codeHash] })],
);

// "Download my data" (issue 29): one row per export an account asked for. The consumer writes the
// JSON to R2 under exports/<userId>/<id>.json and marks the row ready; the link works for its
// owner until expires_at. Deleted with the account.
export const dataExports = sqliteTable(
  "data_exports",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // "expired": the link's time ran out and the hourly cron deleted the file from R2.
    status: text("status", { enum: ["pending", "ready", "failed", "expired"] })
      .notNull()
      .default("pending"),
    byteSize: integer("byte_size"),
    readyAt: integer("ready_at"),
    expiresAt: integer("expires_at"),
    createdAt: createdAt(),
  },
  (t) => [index("data_exports_user_idx").on(t.userId, t.createdAt)],
);

// Passkeys (WebAuthn credentials) a user registered from the profile (issue 29). The credential
// id (base64url) is the key; the public key is COSE bytes as base64url; the counter is the
// authenticator's sign count, checked and raised on every sign-in.
export const passkeys = sqliteTable(
  "passkeys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    publicKey: text("public_key").notNull(),
    counter: integer("counter").notNull().default(0),
    transports: text("transports", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    deviceType: text("device_type", { enum: ["singleDevice", "multiDevice"] }).notNull(),
    backedUp: integer("backed_up", { mode: "boolean" }).notNull().default(false),
    lastUsedAt: integer("last_used_at"),
    createdAt: createdAt(),
  },
  (t) => [index("passkeys_user_idx").on(t.userId)],
);

// WebAuthn challenges handed out by the options endpoints: single use (deleted by the statement
// that reads them) and short-lived. A registration challenge belongs to the signed-in user who
// asked for it; a sign-in challenge belongs to nobody until a passkey answers it.
export const passkeyChallenges = sqliteTable(
  "passkey_challenges",
  {
    challenge: text("challenge").primaryKey(),
    purpose: text("purpose", { enum: ["register", "authenticate"] }).notNull(),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("passkey_challenges_expiry_idx").on(t.expiresAt)],
);

// Personal API keys (issue 49, ADR 0034): read-only keys a user makes on the dashboard for their
// own scripts. Only the SHA-256 of the secret is kept (the secret is shown once); `prefix` is its
// first characters, which the dashboard shows so the owner can tell keys apart. A revoked key stays
// listed (with when it was revoked) and stops working at once; deleting the account deletes them.
export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    prefix: text("prefix").notNull(),
    secretHash: text("secret_hash").notNull(),
    scopes: text("scopes", { mode: "json" }).$type<string[]>().notNull(),
    createdAt: createdAt(),
    lastUsedAt: integer("last_used_at"),
    revokedAt: integer("revoked_at"),
  },
  (t) => [uniqueIndex("api_keys_secret_hash_idx").on(t.secretHash), index("api_keys_user_idx").on(t.userId)],
);

// Teams (issue 50): a team has one owner and members with roles; an account may belong to several
// and keeps its personal plan. `seats` is how many memberships the team may hold, the owner's
// included: what its paid plan bought (the Stripe subscription's quantity), or TEAMS.unpaidSeats
// before it pays. `slug` names the team in its pages' URLs (/dashboard/teams/:slug/...).
export const teams = sqliteTable("teams", {
  id: text("id").primaryKey(),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  ownerId: text("owner_id")
    .notNull()
    .references(() => users.id),
  seats: integer("seats").notNull(),
  trialUsed: integer("trial_used", { mode: "boolean" }).notNull().default(false),
  stripeCustomerId: text("stripe_customer_id"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const TEAM_ROLES = ["owner", "admin", "member"] as const;

// One membership per account and team; exactly one owner per team (the partial unique index).
// role_rank is role's place in the members page's order (owner, admins, members), computed by
// SQLite on read: the page's keyset compares (role_rank, joined_at, user_id) as one row value,
// which SQLite can seek in team_members_page_idx only when every part is a column (an index on the
// CASE expression itself still reads the team's whole list up to the page).
export const teamMembers = sqliteTable(
  "team_members",
  {
    teamId: text("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: TEAM_ROLES }).notNull(),
    joinedAt: integer("joined_at").notNull(),
    roleRank: integer("role_rank").generatedAlwaysAs(sql`CASE role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 ELSE 2 END`, { mode: "virtual" }),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.userId] }),
    index("team_members_user_idx").on(t.userId),
    index("team_members_page_idx").on(t.teamId, t.roleRank, t.joinedAt, t.userId),
    uniqueIndex("team_members_one_owner_idx").on(t.teamId).where(sql`role = 'owner'`),
  ],
);

// An invitation by e-mail: single use (accepted_at), expiring, revocable; the token is kept as its
// SHA-256 only. `email` is the normalised address the invitation is for: only a sign-in with it accepts.
export const teamInvitations = sqliteTable(
  "team_invitations",
  {
    id: text("id").primaryKey(),
    teamId: text("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: text("role", { enum: ["admin", "member"] }).notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    invitedBy: text("invited_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    expiresAt: integer("expires_at").notNull(),
    acceptedAt: integer("accepted_at"),
    acceptedBy: text("accepted_by").references(() => users.id, { onDelete: "set null" }),
    revokedAt: integer("revoked_at"),
  },
  (t) => [index("team_invitations_team_idx").on(t.teamId, t.createdAt)],
);

// What happened in a team (invitations, joins, removals, role, seat and budget changes), kept
// TEAMS.activityKeptMs. `subject_id` is the member or invitation acted on; `details` never holds
// an e-mail address of someone other than the actor.
export const teamActivity = sqliteTable(
  "team_activity",
  {
    id: text("id").primaryKey(),
    teamId: text("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action").notNull(),
    subjectId: text("subject_id"),
    details: text("details", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
    at: integer("at").notNull(),
  },
  (t) => [index("team_activity_team_idx").on(t.teamId, t.at), index("team_activity_actor_idx").on(t.actorId)],
);

// A team's Stripe subscription to the Team plan (issue 50, ADR 0037): one row per team, written by
// the Stripe sync from what Stripe reports (like `subscriptions`, per team). `quantity` is the
// seats bought; the sync copies it into teams.seats while the subscription is paid. While it
// counts as active (lib/billing/statuses.ts), every member has the desktop app's entitlements.
export const teamSubscriptions = sqliteTable("team_subscriptions", {
  id: text("id").primaryKey(),
  teamId: text("team_id")
    .notNull()
    .unique()
    .references(() => teams.id, { onDelete: "cascade" }),
  status: text("status", { enum: SUBSCRIPTION_STATUSES }).notNull(),
  stripeSubscriptionId: text("stripe_subscription_id").unique(),
  stripeCustomerId: text("stripe_customer_id"),
  stripePriceId: text("stripe_price_id"),
  quantity: integer("quantity").notNull(),
  currentPeriodStart: integer("current_period_start"),
  currentPeriodEnd: integer("current_period_end"),
  trialStart: integer("trial_start"),
  trialEnd: integer("trial_end"),
  cancelAt: integer("cancel_at"),
  cancelAtPeriodEnd: integer("cancel_at_period_end", { mode: "boolean" }).notNull().default(false),
  canceledAt: integer("canceled_at"),
  endedAt: integer("ended_at"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

// A team's shared budget (issue 50, ADR 0039): set by owners and admins, decided by the team's
// ledger (`team:<id>`, UTC periods): alerts to the owner and admins at each threshold once per
// period, and, with a hard cap switched on, the team members' claims refused at the budget.
export const teamBudgets = sqliteTable("team_budgets", {
  teamId: text("team_id")
    .primaryKey()
    .references(() => teams.id, { onDelete: "cascade" }),
  monthlyBudget: real("monthly_budget").notNull(),
  dailyBudget: real("daily_budget").notNull(),
  // Whole percents, ascending; each alerts once per UTC month or day.
  alertThresholds: text("alert_thresholds", { mode: "json" }).$type<number[]>().notNull(),
  notificationsEnabled: integer("notifications_enabled", { mode: "boolean" }).notNull(),
  monthlyHardCap: integer("monthly_hard_cap", { mode: "boolean" }).notNull().default(false),
  dailyHardCap: integer("daily_hard_cap", { mode: "boolean" }).notNull().default(false),
  updatedAt: updatedAt(),
});

// One member's hard cap inside a team (ADR 0039): what the member's team device keys may spend
// for the team in a UTC month. The row goes with the membership's team or the member's account.
export const teamMemberCaps = sqliteTable(
  "team_member_caps",
  {
    teamId: text("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    monthlyLimitUsd: real("monthly_limit_usd").notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] })],
);

// Issue 50: every time the site admin opened a team's usage, with the reason they gave. Kept apart
// from the team (no foreign keys): the record outlives the team and the admin's account, and
// `team_activity` tells the team's owners and admins in a row of its own.
export const adminAudit = sqliteTable(
  "admin_audit",
  {
    id: text("id").primaryKey(),
    adminId: text("admin_id").notNull(),
    teamId: text("team_id").notNull(),
    reason: text("reason").notNull(),
    at: integer("at").notNull(),
  },
  (t) => [index("admin_audit_access_idx").on(t.adminId, t.teamId, t.at)],
);
