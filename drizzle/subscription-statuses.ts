// The values the subscriptions table's status column may hold: the schema's enum. They live here,
// beside the schema, because drizzle/ imports nothing from app/ (app/ builds on the schema, not
// the reverse); app/lib/billing/statuses.ts holds every rule read from them. No drizzle-orm
// import: the dashboard's debug tab renders the list in the browser.

/** Stripe's statuses in our words: Stripe's "trialing" is the spec's "trial". */
export const SUBSCRIPTION_STATUSES = ["trial", "active", "past_due", "canceled", "unpaid", "incomplete", "incomplete_expired", "paused"] as const;
