// Issue 50's usage per team (ADR 0038), through the real runtime: a device key chosen for a team on
// /device reports to its member's ledger and to the team's, each exactly once, also when the queue
// delivers a message again; a personal key's reports stay personal; a removed member's new reports
// count for the member alone; the team's pages show a member only their own row (another member's
// filter: 404), their per-member rows add up to the team's totals, and days follow the viewer's zone.
import { createMessageBatch, env, getQueueResult, SELF, createExecutionContext } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { MS } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { TEAM_MESSAGES } from "~/lib/teams/messages";
import { handleEventBatch } from "~/lib/queue/dispatch.server";
import { toLedgerUsage } from "~/lib/usage/ingest.server";
import type { TeamQuery } from "~/lib/usage/ledger/team-reads";
import { teamLedger } from "~/lib/usage/team-ingest.server";
import { parseConsumerEnv } from "../../workers/consumer-env";
import { createConfirmedUser, db, ORIGIN, queueSettled, uniqueIp, visibleText, waitFor } from "./helpers";
import { insertTeam } from "./team-helpers";
import { deviceKey, ledger, postUsage, report } from "./usage-helpers";

const wholeRange = (member?: string): TeamQuery => ({
  from: Date.now() - 10 * MS.DAY,
  to: Date.now() + MS.DAY,
  zone: "UTC",
  member,
  members: { limit: 100 },
});

async function teamTotals(teamId: string) {
  return (await teamLedger(env.USAGE_LEDGER, teamId).readTeam(wholeRange())).totals.totalRequests;
}

describe("usage per team", () => {
  it("counts a team key's report once for the member and once for the team, also after redelivery; a personal key's only personally", {
    timeout: 60_000,
  }, async () => {
    const owner = await createConfirmedUser();
    const member = await createConfirmedUser();
    const team = await insertTeam({ ownerId: owner.id, members: [member.id] });
    const teamKey = await deviceKey(member.browser, team.slug);
    expect(teamKey.team).toEqual({ slug: team.slug, name: `Team ${team.slug}` });
    const personalKey = await deviceKey(member.browser, "");
    expect(personalKey.team).toBeNull();

    const reports = [report(), report(), report()];
    expect((await postUsage(teamKey.access_token, { reports })).status).toBe(202);
    expect((await postUsage(personalKey.access_token, { reports: [report(), report()] })).status).toBe(202);
    await queueSettled(20_000);
    expect(await ledger(member.id).size()).toMatchObject({ reports: 5 });
    expect(await teamLedger(env.USAGE_LEDGER, team.id).size()).toMatchObject({ reports: 3 });
    expect(await teamTotals(team.id)).toBe(3);

    // The queue delivers the team key's message again: neither ledger changes.
    const receivedAt = Date.now();
    const body = {
      type: "usage.reports",
      userId: member.id,
      receivedAt,
      teamId: team.id,
      reports: reports.map((r) => ({ ...r, occurred_at: receivedAt })),
    };
    const batch = createMessageBatch("modelify-events", [{ id: "again-1", timestamp: new Date(), attempts: 2, body }]);
    const ctx = createExecutionContext();
    await handleEventBatch({ db, env: parseConsumerEnv(env), queue: env.EVENTS, ledgers: env.USAGE_LEDGER }, batch);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual(["again-1"]);
    expect(await ledger(member.id).size()).toMatchObject({ reports: 5 });
    expect(await teamLedger(env.USAGE_LEDGER, team.id).size()).toMatchObject({ reports: 3 });
    expect(await teamTotals(team.id)).toBe(3);
  });

  it("no longer counts a removed member's new reports for the team; the approval refuses a team the approver is not in", { timeout: 60_000 }, async () => {
    const owner = await createConfirmedUser();
    const member = await createConfirmedUser();
    const team = await insertTeam({ ownerId: owner.id, members: [member.id] });
    const teamKey = await deviceKey(member.browser, team.slug);
    expect((await postUsage(teamKey.access_token, { reports: [report()] })).status).toBe(202);
    await queueSettled(20_000);
    expect(await teamTotals(team.id)).toBe(1);

    await db.delete(schema.teamMembers).where(and(eq(schema.teamMembers.teamId, team.id), eq(schema.teamMembers.userId, member.id)));
    expect((await postUsage(teamKey.access_token, { reports: [report(), report()] })).status).toBe(202);
    await queueSettled(20_000);
    expect(await ledger(member.id).size()).toMatchObject({ reports: 3 });
    expect(await teamTotals(team.id)).toBe(1);

    // Another team (or one the approver left) is refused, and the code stays unapproved.
    const other = await insertTeam({ ownerId: owner.id });
    const asked = await SELF.fetch(`${ORIGIN}/api/v1/auth/device`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": uniqueIp() },
      body: JSON.stringify({ client_id: "modelify-desktop", device_name: "PC", platform: "linux", app_version: "2.0.0", app_instance_id: crypto.randomUUID() }),
    });
    const code = await asked.json<{ user_code: string }>();
    for (const slug of [other.slug, team.slug]) {
      expect((await member.browser.post("/device", { intent: "approve", code: code.user_code, context: slug })).status).toBe(400);
    }
  });

  it("tells every member's open team usage page of a report under the team: the owner's socket hears the member's report", { timeout: 60_000 }, async () => {
    const owner = await createConfirmedUser();
    const member = await createConfirmedUser();
    const team = await insertTeam({ ownerId: owner.id, members: [member.id] });
    const memberKey = await deviceKey(member.browser, team.slug);
    const response = await owner.browser.get(`/dashboard/teams/${team.slug}/usage/live`, { headers: { Upgrade: "websocket", Origin: ORIGIN } });
    expect(response.status).toBe(101);
    const ws = response.webSocket!;
    const messages: string[] = [];
    ws.addEventListener("message", (event) => messages.push(String(event.data)));
    ws.accept();
    // Nothing is said before there is something to say.
    const pong = new Promise<void>((resolve) => ws.addEventListener("message", (event) => event.data === "pong" && resolve()));
    ws.send("ping");
    await pong;
    expect(messages).toEqual(["pong"]);

    expect((await postUsage(memberKey.access_token, { reports: [report({ cost_usd: 0.2 })] })).status).toBe(202);
    await waitFor(() => messages.length > 1, "the team's usage message", 15_000);
    const message = JSON.parse(messages[1]!) as { type: string; version: number };
    expect(message.type).toBe("usage");
    expect(message.version).toBeGreaterThan(0);
    expect(await teamTotals(team.id)).toBe(1);
    ws.close(1000, "done");
  });

  it("shows a member the team's totals and their own row only (another member's filter: 404); an admin every member, adding up to the totals", {
    timeout: 60_000,
  }, async () => {
    const owner = await createConfirmedUser();
    const member = await createConfirmedUser();
    const outsider = await createConfirmedUser();
    const team = await insertTeam({ ownerId: owner.id, members: [member.id] });
    const ownerKey = await deviceKey(owner.browser, team.slug);
    const memberKey = await deviceKey(member.browser, team.slug);
    await postUsage(ownerKey.access_token, { reports: [report({ cost_usd: 0.5 }), report({ cost_usd: 0.25, model_name: "claude-3" })] });
    await postUsage(memberKey.access_token, { reports: [report({ cost_usd: 0.1 })] });
    await queueSettled(20_000);

    const page = `/dashboard/teams/${team.slug}/usage`;
    expect((await member.browser.get(`${page}?member=${owner.id}`)).status).toBe(404);
    expect((await member.browser.get(`${page}.csv?days=7`)).status).toBe(200);
    expect((await outsider.browser.get(page)).status).toBe(404);
    expect((await outsider.browser.get(`${page}.csv`)).status).toBe(404);
    const asMember = await (await member.browser.get(page)).text();
    expect(asMember).toContain(`data-member="${member.id}"`);
    expect(asMember).not.toContain(`data-member="${owner.id}"`);
    const asOwner = await owner.browser.get(`${page}?member=${member.id}`);
    expect(asOwner.status).toBe(200);

    const read = await teamLedger(env.USAGE_LEDGER, team.id).readTeam(wholeRange());
    expect(read.totals).toMatchObject({ totalRequests: 3, totalCostMicros: 850_000 });
    expect(read.members.rows.map((m) => m.key)).toEqual([owner.id, member.id]);
    const summed = read.members.rows.reduce((sum, m) => sum + m.totalCostMicros, 0);
    expect(summed).toBe(read.totals.totalCostMicros);
    expect(read.members.rows.reduce((sum, m) => sum + m.totalRequests, 0)).toBe(read.totals.totalRequests);
    // A page of one, then the next from its cursor: the same two members, in cost order.
    const first = await teamLedger(env.USAGE_LEDGER, team.id).readTeam({ ...wholeRange(), members: { limit: 1 } });
    const second = await teamLedger(env.USAGE_LEDGER, team.id).readTeam({ ...wholeRange(), members: { limit: 1, after: first.members.next } });
    expect([...first.members.rows, ...second.members.rows].map((m) => m.key)).toEqual([owner.id, member.id]);
    expect(second.members.next).toBeNull();

    const csv = await (await owner.browser.get(`${page}.csv?days=7`)).text();
    expect(csv.trim().split("\r\n")).toHaveLength(4);

    // A made-up page of the members' table, or a member id no account has the shape of: 400 with
    // the reason, on the page and its export alike (never the tab's "failed to load").
    for (const query of ["?after=not-a-cursor", `?member=${"x".repeat(65)}`]) {
      for (const path of [page, `${page}.csv`]) {
        const refused = await owner.browser.get(`${path}${query}`);
        expect(refused.status, `${path}${query}`).toBe(400);
        const text = visibleText(await refused.text());
        expect(text).toContain(TEAM_MESSAGES.badUsageView);
        expect(text).not.toContain("Failed to load tab content");
      }
    }
  });

  it("draws the team's days in the viewer's zone", async () => {
    const teamId = crypto.randomUUID();
    const memberId = crypto.randomUUID();
    // 23:30 UTC: the same day in UTC, the next one in Tokyo (+9).
    const at = Date.UTC(2026, 10, 20, 23, 30);
    const usage = toLedgerUsage({ userId: memberId, receivedAt: at, report: { ...report(), occurred_at: at } as never }, memberId);
    await teamLedger(env.USAGE_LEDGER, teamId).ingest({ usage: [usage], secure: [], budget: null, now: at });
    const range = { from: Date.UTC(2026, 10, 19), to: Date.UTC(2026, 10, 23), members: { limit: 10 } };
    const inUtc = await teamLedger(env.USAGE_LEDGER, teamId).readTeam({ ...range, zone: "UTC" });
    const inTokyo = await teamLedger(env.USAGE_LEDGER, teamId).readTeam({ ...range, zone: "Asia/Tokyo" });
    expect(inUtc.days.map((d) => d.key)).toEqual(["2026-11-20"]);
    expect(inTokyo.days.map((d) => d.key)).toEqual(["2026-11-21"]);
    expect(inTokyo.totals.totalRequests).toBe(1);
    // A range that ends before the report's instant leaves it out, whatever whole days it spans.
    const before = await teamLedger(env.USAGE_LEDGER, teamId).readTeam({ ...range, to: at, zone: "UTC" });
    expect(before.totals.totalRequests).toBe(0);
  });
});
