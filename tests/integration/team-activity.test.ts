// The team's activity log a page at a time (issue 50): a year of a busy team's rows is read by
// keyset pages of TEAMS.activityPerPage, newest first, each row once; a made-up position answers
// 400 with the reason; another team's rows never show; a member still gets the page's 404.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { gatherAccountData } from "~/lib/account/export-data.server";
import { TEAMS } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { parseConsumerEnv } from "../../workers/consumer-env";
import { createConfirmedUser, db, linkPath, waitForMail } from "./helpers";
import { createTeamAs } from "./team-helpers";

/** `count` role changes, numbered, some sharing one instant (the keyset's tie on id). */
async function addActivity(teamId: string, actorId: string, count: number, label: string, now: number) {
  const rows = Array.from({ length: count }, (_, i) => ({
    id: crypto.randomUUID(),
    teamId,
    actorId,
    action: "role_changed",
    details: { to: `${label}${i}` },
    at: now - Math.floor(i / 3) * 60_000,
  }));
  for (let i = 0; i < rows.length; i += 10) await db.insert(schema.teamActivity).values(rows.slice(i, i + 10));
}

const labels = (html: string, label: string) => [...html.matchAll(new RegExp(`\\(now ${label}(\\d+)\\)`, "g"))].map((m) => Number(m[1]));
// The "Older" link (the page's other links, e.g. sign-out's, keep the page's own search after theirs).
const olderLink = (html: string) => /href="([^"]*\/activity\?after=\d+&(?:amp;)?id=[0-9a-f-]+)"/.exec(html)?.[1]?.replaceAll("&amp;", "&") ?? null;

describe("the team's activity log", () => {
  it("pages a busy team's log newest first, each row once, and refuses a made-up page with 400", async () => {
    const owner = await createConfirmedUser();
    const team = await createTeamAs(owner.browser, "Busy Crew");
    const other = await createTeamAs(owner.browser, "Other Crew");
    const now = Date.now();
    const total = TEAMS.activityPerPage * 2 + 7;
    await addActivity(team.id, owner.id, total, "busy", now + 60_000);
    await addActivity(other.id, owner.id, 5, "other", now + 60_000);

    const seen: number[] = [];
    let path: string | null = `/dashboard/teams/${team.slug}/activity`;
    let pages = 0;
    while (path && pages < 10) {
      const answer = await owner.browser.get(path);
      expect(answer.status, path).toBe(200);
      const html = await answer.text();
      expect(labels(html, "other")).toEqual([]);
      const shown = labels(html, "busy");
      expect(shown.length).toBeLessThanOrEqual(TEAMS.activityPerPage);
      seen.push(...shown);
      path = olderLink(html);
      pages += 1;
    }
    // Every numbered row once, newest first (row i is i / 3 minutes old: three share each instant,
    // in id order), and the team's creation, older than all of them, on the last page.
    expect(pages).toBe(3);
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: total }, (_, i) => i));
    const minutesOld = seen.map((i) => Math.floor(i / 3));
    expect(minutesOld).toEqual([...minutesOld].sort((a, b) => a - b));

    for (const query of ["?after=abc&id=x", "?after=1", `?after=-5&id=${crypto.randomUUID()}`, "?id=not-a-uuid"]) {
      const refused = await owner.browser.get(`/dashboard/teams/${team.slug}/activity${query}`);
      expect(refused.status, query).toBe(400);
      expect(await refused.text()).toContain("This page of the activity log does not exist.");
    }
    const stranger = await createConfirmedUser();
    expect((await stranger.browser.get(`/dashboard/teams/${team.slug}/activity?after=${now}&id=${crypto.randomUUID()}`)).status).toBe(404);
  });
});

describe("the activity log in a data export", () => {
  it("holds the rows the person acted in, naming no one else: whom they invited or removed stays out", async () => {
    const owner = await createConfirmedUser();
    const team = await createTeamAs(owner.browser, "Export Crew");
    const person = await createConfirmedUser();
    const sent = Date.now();
    expect((await owner.browser.post(`/dashboard/teams/${team.slug}/members`, { intent: "invite", email: person.email, role: "member" })).status).toBe(303);
    const mail = await waitForMail(person.email, /invited to join a team/, { after: sent - 1000 });
    expect((await person.browser.post(linkPath(mail.links[0]!), {})).status).toBe(303);
    expect((await owner.browser.post(`/dashboard/teams/${team.slug}/members`, { intent: "remove", userId: person.id })).status).toBe(303);

    const deps = { db, env: parseConsumerEnv(env), ledgers: env.USAGE_LEDGER };
    const ownersExport = await gatherAccountData(deps, { id: owner.id, email: owner.email });
    const ownersRows = ownersExport.tables.team_activity;
    expect(ownersRows.map((r) => r.action).sort()).toEqual(["invitation_sent", "member_removed", "team_created"]);
    // Neither the invited address nor the removed member's account is anywhere in the owner's rows.
    const ownersText = JSON.stringify(ownersRows);
    expect(ownersText).not.toContain(person.email);
    expect(ownersText).not.toContain(person.id);

    const personsExport = await gatherAccountData(deps, { id: person.id, email: person.email });
    const personsRows = personsExport.tables.team_activity;
    expect(personsRows.map((r) => r.action)).toEqual(["member_joined"]);
    expect(personsRows[0]).toMatchObject({ actorId: person.id, subjectId: person.id });
    expect(JSON.stringify(personsRows)).not.toContain(owner.email);
  });
});
