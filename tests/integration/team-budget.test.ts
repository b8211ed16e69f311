// Issue 50's shared budgets (ADR 0039), through the real runtime: the budget page is for owners and
// admins only (a member and a stranger get 404, a cap for another team's member is refused and
// nothing is written), the team's ledger decides its budget alerts once per threshold and UTC
// period and the consumer mails them to the owner and admins only, and a team device key's claims
// meet the team's hard caps and the member's own cap exactly under a burst, while the same
// member's personal key does not.
import { createMessageBatch, env, SELF } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { MS } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { TEAM_MESSAGES } from "~/lib/teams/messages";
import { handleEventBatch } from "~/lib/queue/dispatch.server";
import type { CapEntitlement } from "~/lib/usage/caps";
import { startOfNextMonth } from "~/lib/usage/dates";
import type { Entitlements } from "~/lib/usage/entitlements.server";
import { parseConsumerEnv } from "../../workers/consumer-env";
import { createConfirmedUser, db, ORIGIN } from "./helpers";
import { insertTeam } from "./team-helpers";
import { deviceKey, recordingQueue, report } from "./usage-helpers";

type ClaimBody = Entitlements & { granted: boolean; claim_id?: string; error?: string; cap?: CapEntitlement };

/** Early access: no free-tier window refuses, so only the caps do. */
async function earlyAccess(userId: string) {
  await db
    .update(schema.userProfiles)
    .set({ earlyAccessStatus: "active", earlyAccessExpiresAt: Date.now() + 30 * MS.DAY })
    .where(eq(schema.userProfiles.userId, userId));
}

function claim(token: string, estimate: number) {
  return SELF.fetch(`${ORIGIN}/api/v1/entitlements/claim`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ estimated_cost_usd: estimate }),
  });
}

const budgetForm = { intent: "budget", monthlyBudget: "1", dailyBudget: "", alertThreshold: "50, 100", notificationsEnabled: "on", monthlyHardCap: "on" };

describe("team budgets", () => {
  it("the budget page is the owner's and admins': a member and a stranger get 404; another team's member gets no cap", { timeout: 60_000 }, async () => {
    const [owner, admin, member, stranger] = await Promise.all([createConfirmedUser(), createConfirmedUser(), createConfirmedUser(), createConfirmedUser()]);
    const team = await insertTeam({ ownerId: owner.id, admins: [admin.id], members: [member.id] });
    const other = await insertTeam({ ownerId: stranger.id });
    const page = `/dashboard/teams/${team.slug}/budget`;
    expect((await owner.browser.get(page)).status).toBe(200);
    expect((await admin.browser.get(page)).status).toBe(200);
    expect((await member.browser.get(page)).status).toBe(404);
    expect((await stranger.browser.get(page)).status).toBe(404);
    expect((await member.browser.post(page, budgetForm)).status).toBe(404);
    expect((await stranger.browser.post(page, budgetForm)).status).toBe(404);
    expect(await db.select().from(schema.teamBudgets).where(eq(schema.teamBudgets.teamId, team.id))).toEqual([]);

    expect((await admin.browser.post(page, budgetForm)).status).toBe(303);
    const [saved] = await db.select().from(schema.teamBudgets).where(eq(schema.teamBudgets.teamId, team.id));
    expect(saved).toMatchObject({
      monthlyBudget: 1,
      dailyBudget: 0,
      alertThresholds: [50, 100],
      notificationsEnabled: true,
      monthlyHardCap: true,
      dailyHardCap: false,
    });
    // Bad input: a clear message, nothing written.
    const bad = await owner.browser.post(page, { ...budgetForm, monthlyBudget: "-3" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Budgets cannot be negative");

    // A member's cap: this team's member yes; the other team's owner (not a member here) no.
    expect((await owner.browser.post(page, { intent: "cap", email: member.email.toUpperCase(), limitUsd: "0.2" })).status).toBe(303);
    const refused = await owner.browser.post(page, { intent: "cap", email: stranger.email, limitUsd: "5" });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(TEAM_MESSAGES.notAMember);
    const caps = await db.select().from(schema.teamMemberCaps).where(eq(schema.teamMemberCaps.teamId, team.id));
    expect(caps).toEqual([expect.objectContaining({ userId: member.id, monthlyLimitUsd: 0.2 })]);
    expect(await db.select().from(schema.teamMemberCaps).where(eq(schema.teamMemberCaps.teamId, other.id))).toEqual([]);

    const activity = await db
      .select()
      .from(schema.teamActivity)
      .where(and(eq(schema.teamActivity.teamId, team.id), eq(schema.teamActivity.action, "budget_changed")));
    expect(activity).toHaveLength(2);
    expect(activity.map((a) => a.actorId).sort()).toEqual([admin.id, owner.id].sort());
    expect((await owner.browser.get(`/dashboard/teams/${team.slug}/activity`)).status).toBe(200);
  });

  it("alerts once per threshold and UTC period, mailed to the owner and admins only", { timeout: 60_000 }, async () => {
    const [owner, admin, member] = await Promise.all([createConfirmedUser(), createConfirmedUser(), createConfirmedUser()]);
    const team = await insertTeam({ ownerId: owner.id, admins: [admin.id], members: [member.id] });
    await db.insert(schema.teamBudgets).values({ teamId: team.id, monthlyBudget: 1, dailyBudget: 0, alertThresholds: [50, 100], notificationsEnabled: true });
    const { queue, mails } = recordingQueue();
    const deps = { db, env: parseConsumerEnv(env), queue, ledgers: env.USAGE_LEDGER };
    let n = 0;
    const spend = (costUsd: number) => {
      const now = Date.now();
      const body = {
        type: "usage.report",
        userId: member.id,
        receivedAt: now,
        teamId: team.id,
        report: { ...report({ cost_usd: costUsd }), occurred_at: now },
      };
      return handleEventBatch(deps, createMessageBatch("modelify-events", [{ id: `team-budget-${n++}`, timestamp: new Date(), attempts: 1, body }]));
    };
    const budgetMails = () => mails.filter((m) => "subject" in m && /team budget alert/.test(String(m.subject)));

    await spend(0.6);
    expect(
      budgetMails()
        .map((m) => m.to)
        .sort(),
    ).toEqual([admin.email, owner.email].sort());
    expect(budgetMails()[0]).toMatchObject({ subject: expect.stringContaining("60%") });
    await spend(0.1);
    expect(budgetMails()).toHaveLength(2);
    await spend(0.4);
    expect(budgetMails()).toHaveLength(4);
    // Spend is $1.10 now: the mails name the 100% threshold it passed.
    for (const mail of budgetMails().slice(2)) expect(mail).toMatchObject({ text: expect.stringContaining("passed the 100% alert threshold") });
    await spend(0.2);
    expect(budgetMails()).toHaveLength(4);
    // The member's own (personal, default) budget may mail them; the team's never does.
    expect(budgetMails().some((m) => m.to === member.email)).toBe(false);
  });

  it("a team's hard monthly cap grants exactly what fits of 50 parallel claims from its members' keys; then 429 with Retry-After at the UTC 1st", {
    timeout: 90_000,
  }, async () => {
    const [owner, a, b] = await Promise.all([createConfirmedUser(), createConfirmedUser(), createConfirmedUser()]);
    await Promise.all([owner, a, b].map((u) => earlyAccess(u.id)));
    const team = await insertTeam({ ownerId: owner.id, members: [a.id, b.id] });
    await db
      .insert(schema.teamBudgets)
      .values({ teamId: team.id, monthlyBudget: 1, dailyBudget: 0, alertThresholds: [80], notificationsEnabled: false, monthlyHardCap: true });
    const keys = await Promise.all([owner, a, b].map((u) => deviceKey(u.browser, team.slug)));
    const personal = await deviceKey(a.browser, "");

    const before = Date.now();
    const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => claim(keys[i % 3]!.access_token, 0.05)));
    const after = Date.now();
    const bodies = await Promise.all(responses.map((r) => r.json<ClaimBody>()));
    expect(responses.filter((r) => r.status === 200)).toHaveLength(20);
    expect(responses.filter((r) => r.status === 429)).toHaveLength(30);
    const reset = startOfNextMonth(before, "UTC");
    for (const [i, response] of responses.entries()) {
      if (response.status === 200) continue;
      const wait = Number(response.headers.get("Retry-After"));
      expect(wait).toBeGreaterThanOrEqual(Math.floor((reset - after) / 1000));
      expect(wait).toBeLessThanOrEqual(Math.ceil((reset - before) / 1000));
      expect(bodies[i]).toMatchObject({ granted: false, error: expect.stringContaining(`team ${team.slug}`) });
      expect(bodies[i]!.cap).toMatchObject({ kind: "monthly", team: team.slug, limit_usd: 1, resets_at: new Date(reset).toISOString() });
    }
    const shown = await (
      await SELF.fetch(`${ORIGIN}/api/v1/entitlements`, { headers: { Authorization: `Bearer ${keys[1]!.access_token}` } })
    ).json<Entitlements>();
    expect(shown).toMatchObject({ allowed: false, team: { slug: team.slug, reached: true } });
    expect(shown.team!.caps).toEqual([expect.objectContaining({ kind: "monthly", reserved_usd: 1, reached: true })]);
    // The same member's personal key is not the team's: granted.
    expect((await claim(personal.access_token, 0.05)).status).toBe(200);
  });

  it("a member's cap refuses that member's team claims only", { timeout: 60_000 }, async () => {
    const [owner, member] = await Promise.all([createConfirmedUser(), createConfirmedUser()]);
    await Promise.all([owner, member].map((u) => earlyAccess(u.id)));
    const team = await insertTeam({ ownerId: owner.id, members: [member.id] });
    await db.insert(schema.teamMemberCaps).values({ teamId: team.id, userId: member.id, monthlyLimitUsd: 0.2 });
    const [ownerKey, memberKey] = await Promise.all([deviceKey(owner.browser, team.slug), deviceKey(member.browser, team.slug)]);
    const burst = await Promise.all(Array.from({ length: 10 }, () => claim(memberKey.access_token, 0.05)));
    expect(burst.filter((r) => r.status === 200)).toHaveLength(4);
    const refused = burst.find((r) => r.status === 429)!;
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await refused.json<ClaimBody>()).cap).toMatchObject({ kind: "member", member_id: member.id, team: team.slug, limit_usd: 0.2 });
    expect((await claim(ownerKey.access_token, 0.05)).status).toBe(200);
  });
});
