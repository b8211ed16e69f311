// The demo accounts of the local state: a confirmed demo user with two months of usage history
// (for its usage ledger) and an admin (D1 rows). scripts/local-state.mjs applies both; safe to run
// again: existing rows are kept, so a password changed locally stays changed.
import { hashSecret, sqlString } from "./lib.mjs";
import { generateUsage, ledgerUsage } from "./usage-fixtures.mjs";

export const DEMO_USERS = [
  { id: "00000000-0000-4000-8000-000000000001", email: "demo@modelify.dev", password: "Modelify-Demo-2026", role: "user", firstName: "Demo", lastName: "User" },
  {
    id: "00000000-0000-4000-8000-000000000002",
    email: "admin@modelify.dev",
    password: "Modelify-Admin-2026",
    role: "admin",
    firstName: "Admin",
    lastName: "User",
  },
];

export function seedSql(now = Date.now()) {
  const lines = [];
  for (const u of DEMO_USERS) {
    const metadata = JSON.stringify({ first_name: u.firstName, last_name: u.lastName });
    lines.push(
      `INSERT OR IGNORE INTO users (id, email, password_hash, email_confirmed_at, role, metadata, created_at, updated_at) VALUES (${[
        u.id,
        u.email,
        hashSecret(u.password),
        now,
        u.role,
        metadata,
        now,
        now,
      ]
        .map(sqlString)
        .join(", ")});`,
      `INSERT OR IGNORE INTO user_profiles (id, user_id, email, first_name, last_name, phone_number, timezone, created_at, updated_at) VALUES (${[
        u.id,
        u.id,
        u.email,
        u.firstName,
        u.lastName,
        // A fictional number (555-01xx): its verification code lands in the local outbox.
        u.role === "admin" ? "+15555550101" : "+15555550100",
        "UTC",
        now,
        now,
      ]
        .map(sqlString)
        .join(", ")});`,
    );
  }
  return `${lines.join("\n")}\n`;
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

// `npm run seed [-- --persist-to DIR]`: the whole local state (as `npm run setup`), in .wrangler/state or DIR.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { migrateAndSeed } = await import("./lib.mjs");
  await migrateAndSeed(process.argv.includes("--persist-to") ? process.argv[process.argv.indexOf("--persist-to") + 1] : undefined);
}
