// The team pages through the Worker (issue 50, ADR 0036): roles enforced on the server, 404s for
// non-members and for members on admin pages, invitations by mail accepted by the invited address
// only, removal ending access at once, the switcher, account deletion's refusal. The library's
// bursts (20 acceptances, 3 seats) are in teams-lib.test.ts.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DELETION_MESSAGES } from "~/lib/account/messages";
import { TEAM_INVITATION_LIMITS } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { INVITATION_LIMIT_MESSAGES } from "~/lib/teams/invitations.server";
import { TEAM_MESSAGES as M } from "~/lib/teams/messages";
import { type Browser, createConfirmedUser, db, linkPath, visibleText, waitForMail } from "./helpers";
import { createTeamAs, insertTeam } from "./team-helpers";

async function inviteAndAccept(owner: Browser, slug: string, role: "admin" | "member") {
  const person = await createConfirmedUser();
  const sent = Date.now();
  const invited = await owner.post(`/dashboard/teams/${slug}/members`, { intent: "invite", email: person.email.toUpperCase(), role });
  expect(invited.status).toBe(303);
  const mail = await waitForMail(person.email, /invited to join a team/, { after: sent - 1000 });
  const path = linkPath(mail.links[0]!);
  const accepted = await person.browser.post(path, {});
  expect(accepted.status).toBe(303);
  expect(accepted.headers.get("Location")).toBe(`/dashboard/teams/${slug}`);
  return { ...person, mail, path };
}

describe("team pages", () => {
  it("enforces roles: non-members and members get 404 on admin pages; admins cannot remove the owner", async () => {
    const owner = await createConfirmedUser();
    const slug = (await createTeamAs(owner.browser, "Rocket Crew <b>")).slug;
    const admin = await inviteAndAccept(owner.browser, slug, "admin");
    const member = await inviteAndAccept(owner.browser, slug, "member");
    const stranger = await createConfirmedUser();

    for (const path of [`/dashboard/teams/${slug}`, `/dashboard/teams/${slug}/members`, `/dashboard/teams/${slug}/activity`]) {
      expect((await stranger.browser.get(path)).status, path).toBe(404);
      expect((await owner.browser.get(path)).status, path).toBe(200);
      expect((await admin.browser.get(path)).status, path).toBe(200);
    }
    expect((await member.browser.get(`/dashboard/teams/${slug}`)).status).toBe(200);
    expect((await member.browser.get(`/dashboard/teams/${slug}/members`)).status).toBe(404);
    expect((await member.browser.get(`/dashboard/teams/${slug}/activity`)).status).toBe(404);
    expect((await member.browser.post(`/dashboard/teams/${slug}/members`, { intent: "remove", userId: admin.id })).status).toBe(404);
    expect((await stranger.browser.post(`/dashboard/teams/${slug}/members`, { intent: "invite", email: "x@example.com", role: "member" })).status).toBe(404);

    const refused = await admin.browser.post(`/dashboard/teams/${slug}/members`, { intent: "remove", userId: owner.id });
    expect(refused.status).toBe(403);
    expect(visibleText(await refused.text())).toContain(M.ownerUntouchable);
    expect((await admin.browser.post(`/dashboard/teams/${slug}/members`, { intent: "role", userId: owner.id, role: "member" })).status).toBe(403);

    const overview = visibleText(await (await member.browser.get(`/dashboard/teams/${slug}`)).text());
    expect(overview).toContain("Rocket Crew <b>");
    expect(overview).toContain("3 of 3");
    expect(overview).not.toContain("Activity log");

    // The mail names no inviter-chosen words.
    expect(admin.mail.text).not.toContain("Rocket");
    expect(admin.mail.subject).toBe("You have been invited to join a team on Modelify");

    // Removal ends access with the next request.
    expect((await owner.browser.post(`/dashboard/teams/${slug}/members`, { intent: "remove", userId: member.id })).status).toBe(303);
    expect((await member.browser.get(`/dashboard/teams/${slug}`)).status).toBe(404);
    const activity = await db.select().from(schema.teamActivity).where(eq(schema.teamActivity.subjectId, member.id));
    expect(activity.map((a) => a.action).sort()).toEqual(["member_joined", "member_removed"]);
  });

  it("refuses a cross-team id, another address and a used invitation; the owner cannot leave nor delete the account", async () => {
    const owner = await createConfirmedUser();
    const slug = (await createTeamAs(owner.browser, "Blue Team")).slug;
    const other = await createConfirmedUser();
    const otherSlug = (await createTeamAs(other.browser, "Red Team")).slug;
    const member = await inviteAndAccept(other.browser, otherSlug, "member");
    // An id of another team's member changes nothing in it.
    const cross = await owner.browser.post(`/dashboard/teams/${slug}/members`, { intent: "remove", userId: member.id });
    expect(cross.status).toBe(403);
    expect((await member.browser.get(`/dashboard/teams/${otherSlug}`)).status).toBe(200);

    const invitee = await createConfirmedUser();
    const wrong = await createConfirmedUser();
    const sent = Date.now();
    await owner.browser.post(`/dashboard/teams/${slug}/members`, { intent: "invite", email: invitee.email, role: "member" });
    const mail = await waitForMail(invitee.email, /invited to join a team/, { after: sent - 1000 });
    const path = linkPath(mail.links[0]!);
    const wrongPage = visibleText(await (await wrong.browser.get(path)).text());
    expect(wrongPage).toContain(M.wrongAddress);
    expect(wrongPage).not.toContain("Blue Team");
    expect((await wrong.browser.post(path, {})).status).toBe(403);
    expect(visibleText(await (await invitee.browser.get(path)).text())).toContain("Blue Team");
    expect((await invitee.browser.post(path, {})).status).toBe(303);
    expect((await invitee.browser.post(path, {})).status).toBe(409);

    const leave = await owner.browser.post(`/dashboard/teams/${slug}`, { intent: "leave" });
    expect(leave.status).toBe(409);
    expect(visibleText(await leave.text())).toContain(M.ownerCannotLeave);
    const deletion = await owner.browser.post("/dashboard/profile/delete", { password: "Sunny-Day-42" });
    expect(deletion.status).toBe(409);
    expect(visibleText(await deletion.text())).toContain(DELETION_MESSAGES.ownsTeam);

    // The switcher links the owner's team.
    expect(await (await owner.browser.get("/dashboard")).text()).toContain(`/dashboard/teams/${slug}`);
    expect((await invitee.browser.post(`/dashboard/teams/${slug}`, { intent: "leave" })).status).toBe(303);
    expect((await invitee.browser.get(`/dashboard/teams/${slug}`)).status).toBe(404);
  });

  it("refuses an invitation past the address's daily limit on the page, with 429 and Retry-After, and sends nothing", async () => {
    const owner = await createConfirmedUser();
    const invitee = `flood-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const { limit } = TEAM_INVITATION_LIMITS.perAddress;
    const slugs = await Promise.all(Array.from({ length: limit + 1 }, async () => (await insertTeam({ ownerId: owner.id })).slug));
    for (const slug of slugs.slice(0, limit)) {
      expect((await owner.browser.post(`/dashboard/teams/${slug}/members`, { intent: "invite", email: invitee, role: "member" })).status).toBe(303);
    }
    const refused = await owner.browser.post(`/dashboard/teams/${slugs[limit]}/members`, { intent: "invite", email: invitee, role: "member" });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(visibleText(await refused.text())).toContain(INVITATION_LIMIT_MESSAGES.addressFlooded);
    const rows = await db.select({ id: schema.teamInvitations.id }).from(schema.teamInvitations).where(eq(schema.teamInvitations.email, invitee));
    expect(rows).toHaveLength(limit);
  });
});
