// Issue 50's admin view of teams: only the site admin sees /dashboard/admin/teams (anyone else: 404),
// with seats used of bought and revenue per team, paged; a team's usage shows only after a reason
// was given, which writes the audit row and the team's activity row that its owners and admins read.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { TEAMS } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { listTeamsForAdmin } from "~/lib/teams/admin-teams.server";
import { createConfirmedUser, db, signedInAs, visibleText } from "./helpers";
import { insertTeam } from "./team-helpers";

const auditRows = (teamId: string) => db.select().from(schema.adminAudit).where(eq(schema.adminAudit.teamId, teamId));
const activityRows = (teamId: string) => db.select().from(schema.teamActivity).where(eq(schema.teamActivity.teamId, teamId));

describe("the admin's teams", () => {
  it("answers 404 to anyone but the site admin, a team owner included", async () => {
    const owner = await createConfirmedUser();
    const team = await insertTeam({ ownerId: owner.id, seats: 5 });
    const user = await signedInAs("user");
    for (const browser of [owner.browser, user.browser]) {
      expect((await browser.get("/dashboard/admin/teams")).status).toBe(404);
      expect((await browser.get(`/dashboard/admin/teams/${team.id}`)).status).toBe(404);
      expect((await browser.post(`/dashboard/admin/teams/${team.id}`, { reason: "A reason long enough" })).status).toBe(404);
    }
    expect(await auditRows(team.id)).toHaveLength(0);
  });

  it("lists seats used of bought and the revenue of an active subscription", async () => {
    const owner = await createConfirmedUser();
    const member = await createConfirmedUser();
    const team = await insertTeam({ ownerId: owner.id, members: [member.id], seats: 4 });
    await db.insert(schema.teamSubscriptions).values({ id: crypto.randomUUID(), teamId: team.id, status: "active", quantity: 4 });
    const { browser } = await signedInAs("admin");
    const page = await browser.get("/dashboard/admin/teams");
    expect(page.status).toBe(200);
    const text = visibleText(await page.text());
    const row = text.slice(text.indexOf(`Team ${team.slug}`));
    expect(row).toMatch(/2 \/ 4/);
    expect(row).toContain("active");
    expect(row).toContain(`$${(4 * TEAMS.seatPriceUsd).toFixed(2)}`);
  });

  it("pages by keyset: every team once, newest first", async () => {
    const owner = await createConfirmedUser();
    const base = Date.now() + 10 * 86_400_000;
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await insertTeam({ ownerId: owner.id, seats: 3, createdAt: base + (i % 2) * 1000 }));
    const seen: string[] = [];
    let after = null;
    do {
      const page: Awaited<ReturnType<typeof listTeamsForAdmin>> = await listTeamsForAdmin(db, after, 2);
      seen.push(...page.rows.map((r) => r.id));
      after = page.next;
    } while (after && seen.length < 200);
    expect(new Set(seen).size).toBe(seen.length);
    for (const team of made) expect(seen).toContain(team.id);
    // The newest two (one millisecond time, so the id breaks the tie) come first.
    expect(seen.slice(0, 2).sort()).toEqual([made[1]!.id, made[3]!.id].sort());
  });

  it("shows no usage without a reason; a reason writes the audit row and the team's activity row first", async () => {
    const owner = await createConfirmedUser();
    const team = await insertTeam({ ownerId: owner.id, seats: 5 });
    const admin = await signedInAs("admin");
    const before = await admin.browser.get(`/dashboard/admin/teams/${team.id}`);
    expect(before.status).toBe(200);
    const html = await before.text();
    expect(html).not.toContain("admin-team-usage");
    expect(visibleText(html)).toContain("Read this team's usage");

    for (const reason of ["", "short", "x".repeat(TEAMS.adminReasonMaxLength + 1)]) {
      const refused = await admin.browser.post(`/dashboard/admin/teams/${team.id}`, { reason });
      expect(refused.status).toBe(400);
    }
    expect(await auditRows(team.id)).toHaveLength(0);
    expect((await admin.browser.get(`/dashboard/admin/teams/${team.id}`)).status).toBe(200);
    expect(await (await admin.browser.get(`/dashboard/admin/teams/${team.id}`)).text()).not.toContain("admin-team-usage");

    const reason = "Support case 1234: the owner asked about their bill";
    const given = await admin.browser.post(`/dashboard/admin/teams/${team.id}`, { reason });
    expect(given.status).toBe(303);
    const audit = await auditRows(team.id);
    expect(audit).toEqual([expect.objectContaining({ adminId: admin.id, teamId: team.id, reason })]);
    const activity = (await activityRows(team.id)).filter((r) => r.action === "admin_viewed_usage");
    expect(activity).toEqual([expect.objectContaining({ actorId: null, details: { reason } })]);

    const after = await admin.browser.get(`/dashboard/admin/teams/${team.id}`);
    expect(await after.text()).toContain("admin-team-usage");
    // Another admin has not given a reason: nothing for them.
    const other = await signedInAs("admin");
    expect(await (await other.browser.get(`/dashboard/admin/teams/${team.id}`)).text()).not.toContain("admin-team-usage");

    const log = await owner.browser.get(`/dashboard/teams/${team.slug}/activity`);
    expect(visibleText(await log.text())).toContain(`A Modelify administrator viewed usage: ${reason}`);
  });

  it("ends the access after its time: an older reason shows nothing", async () => {
    const owner = await createConfirmedUser();
    const team = await insertTeam({ ownerId: owner.id, seats: 5 });
    const admin = await signedInAs("admin");
    await db.insert(schema.adminAudit).values({
      id: crypto.randomUUID(),
      adminId: admin.id,
      teamId: team.id,
      reason: "An old reason, long enough",
      at: Date.now() - TEAMS.adminUsageAccessMs - 1000,
    });
    expect(await (await admin.browser.get(`/dashboard/admin/teams/${team.id}`)).text()).not.toContain("admin-team-usage");
  });

  it("answers 404 for a team that does not exist", async () => {
    const admin = await signedInAs("admin");
    expect((await admin.browser.get(`/dashboard/admin/teams/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await admin.browser.post(`/dashboard/admin/teams/${crypto.randomUUID()}`, { reason: "A reason long enough" })).status).toBe(404);
  });
});
