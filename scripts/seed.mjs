// Seeds the local D1 database: a confirmed demo user with a month of usage history, and an
// admin. Safe to run again: existing rows are kept, so a password changed locally stays changed.
import { mkdirSync, writeFileSync } from "node:fs";
import { hashSecret, run, sqlString } from "./lib.mjs";
import { generateUsage, usageSql } from "./usage-fixtures.mjs";

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
  // Two months of usage history for the demo user (so "this month" has a month to compare with) (ids are fixed per seed, so a re-run adds nothing).
  const day = Math.floor(now / 86400_000);
  lines.push(usageSql(generateUsage({ userId: DEMO_USERS[0].id, days: 60, count: 3000, now, seed: day }), `seed-${day}`));
  return `${lines.join("\n")}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  mkdirSync(".wrangler", { recursive: true });
  const file = ".wrangler/seed.sql";
  writeFileSync(file, seedSql());
  // Optional: --persist-to <dir> for a throwaway state (end-to-end tests).
  const persist = process.argv.includes("--persist-to") ? ["--persist-to", process.argv[process.argv.indexOf("--persist-to") + 1]] : [];
  await run("wrangler", ["d1", "execute", "DB", "--local", "--file", file, ...persist], { stdio: ["ignore", "ignore", "inherit"] });
  console.log(`Seeded ${DEMO_USERS.map((u) => u.email).join(", ")}`);
}
