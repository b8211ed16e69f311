// The demo accounts of the local state: a confirmed demo user with two months of usage history
// (for its usage ledger) and an admin (D1 rows). scripts/local-state.mjs applies both through the
// local seed Worker (workers/local-seed.ts: the app's own password hashing and drizzle schema); safe
// to run again: existing rows are kept, so a password changed locally stays changed.
import { generateUsage, ledgerUsage } from "./usage-fixtures.mjs";

// Fictional numbers (555-01xx): their verification codes land in the local outbox. The shape is
// DemoAccount in workers/local-seed.ts.
export const DEMO_USERS = [
  {
    id: "00000000-0000-4000-8000-000000000001",
    email: "demo@modelify.dev",
    password: "Modelify-Demo-2026",
    role: "user",
    firstName: "Demo",
    lastName: "User",
    phoneNumber: "+15555550100",
  },
  {
    id: "00000000-0000-4000-8000-000000000002",
    email: "admin@modelify.dev",
    password: "Modelify-Admin-2026",
    role: "admin",
    firstName: "Admin",
    lastName: "User",
    phoneNumber: "+15555550101",
  },
];

/**
 * Writes the demo accounts through the local seed Worker running on `mf` (a Miniflare).
 * @param {{ dispatchFetch: (url: string, init: RequestInit) => Promise<Response> }} mf
 */
export async function seedAccounts(mf, now = Date.now()) {
  const response = await mf.dispatchFetch("http://local-seed/accounts", { method: "POST", body: JSON.stringify({ accounts: DEMO_USERS, now }) });
  if (!response.ok) throw new Error(`Seeding the demo accounts failed: ${response.status} ${await response.text()}`);
}

/**
 * The demo user's usage history for its ledger: two months (so "this month" has a month to compare
 * with) ending `now`, deterministic per day (the generator's seed is the day: the same report ids
 * and figures whenever it runs that day).
 */
export function demoUsage(now = Date.now()) {
  const userId = DEMO_USERS[0].id;
  return { userId, usage: ledgerUsage(generateUsage({ userId, days: 60, count: 3000, now, seed: Math.floor(now / 86400_000) })) };
}
