// The demo accounts of the local state: a confirmed demo user with two months of usage history
// (for its usage ledger) and an admin (D1 rows). scripts/local-state.mjs applies both through the
// local seed Worker (workers/local-seed.ts: the app's own password hashing and drizzle schema); safe
// to run again: existing rows are kept, so a password changed locally stays changed.
import { generateUsage, ledgerUsage, queuedUsage } from "./usage-fixtures.mjs";

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
  // The demo team's two other members (issue 50).
  {
    id: "00000000-0000-4000-8000-000000000003",
    email: "demo-member1@modelify.dev",
    password: "Modelify-Member1-2026",
    role: "user",
    firstName: "Demo",
    lastName: "Member One",
    phoneNumber: "+15555550102",
  },
  {
    id: "00000000-0000-4000-8000-000000000004",
    email: "demo-member2@modelify.dev",
    password: "Modelify-Member2-2026",
    role: "user",
    firstName: "Demo",
    lastName: "Member Two",
    phoneNumber: "+15555550103",
  },
];

/**
 * The demo team (issue 50): the demo account owns it, the two demo members are an admin and a
 * member; its three memberships fill its three unpaid seats. The shape is DemoTeam in workers/local-seed.ts.
 */
const DEMO_TEAM = {
  id: "00000000-0000-4000-8000-0000000000a1",
  slug: "demo-team",
  name: "Demo Team",
  members: [
    { userId: DEMO_USERS[0].id, role: "owner" },
    { userId: DEMO_USERS[2].id, role: "admin" },
    { userId: DEMO_USERS[3].id, role: "member" },
  ],
};

/**
 * URLs for the route table's private dynamic pages, which /sitemap.xml does not list: the demo
 * team's pages (the demo account opens them, the admin its admin page), and an invitation's page with a token no invitation
 * has (it answers the signed-out view, or "no longer valid"). The accessibility sweep and
 * Lighthouse take these beside the sitemap's.
 * @param {string} pattern a route table path, e.g. "/dashboard/teams/:slug/members"
 * @returns {string[]}
 */
export function seededPageUrls(pattern) {
  if (pattern.startsWith("/dashboard/teams/:slug")) return [pattern.replace(":slug", DEMO_TEAM.slug)];
  // The site admin's page of one team (the admin account opens it; others get its 404).
  if (pattern === "/dashboard/admin/teams/:teamId") return [`/dashboard/admin/teams/${DEMO_TEAM.id}`];
  if (pattern === "/teams/invitations/:token") return ["/teams/invitations/no-such-invitation-0000000000"];
  return [];
}

/**
 * Writes the demo accounts through the local seed Worker running on `mf` (a Miniflare).
 * @param {{ dispatchFetch: (url: string, init: RequestInit) => Promise<Response> }} mf
 */
export async function seedAccounts(mf, now = Date.now()) {
  const response = await mf.dispatchFetch("http://local-seed/accounts", {
    method: "POST",
    body: JSON.stringify({ accounts: DEMO_USERS, team: DEMO_TEAM, now }),
  });
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

/**
 * The demo team's month (issue 50): each member's reports under the team, as their desktop apps
 * would send them (the consumer's queue items), a busier admin than member. Deterministic per day.
 * The seed Worker stores them the consumer's way: each in the member's ledger and the team's.
 */
export function demoTeamUsage(now = Date.now()) {
  const day = Math.floor(now / 86400_000);
  const counts = [500, 400, 250];
  const usage = DEMO_TEAM.members.flatMap((m, i) =>
    queuedUsage(generateUsage({ userId: m.userId, days: 30, count: counts[i], now, seed: day * 7 + i + 1 }), DEMO_TEAM.id),
  );
  return { teamId: DEMO_TEAM.id, members: DEMO_TEAM.members.map((m) => m.userId), usage };
}
