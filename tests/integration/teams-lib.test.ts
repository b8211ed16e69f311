// Teams' rules at the library's level (issue 50, ADR 0036): seats under bursts of acceptances,
// single-use invitations, roles, transfer and leaving. The pages' own checks are in teams.test.ts.
import { env } from "cloudflare:test";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "~/lib/db.server";
import { TEAM_INVITATION_LIMITS, TEAMS } from "~/lib/constants";
import { acceptInvitation, createInvitation, INVITATION_LIMIT_MESSAGES, revokeInvitation } from "~/lib/teams/invitations.server";
import { TEAM_MESSAGES as M } from "~/lib/teams/messages";
import { changeRole, leaveTeam, removeMember, transferOwnership } from "~/lib/teams/members.server";
import { createTeam, type Membership, memberCount, membershipOf } from "~/lib/teams/teams.server";
import { db, insertUser, ORIGIN, uniqueEmail } from "./helpers";

const deps = { db, queue: env.EVENTS, origin: ORIGIN };
const departure = { db, ledgers: env.USAGE_LEDGER };

async function account(prefix = "team") {
  const email = uniqueEmail(prefix);
  const row = await insertUser({ email, passwordHash: "x", metadata: {}, confirmed: true });
  return { id: row.id, email };
}

async function teamOf(owner: { id: string }, name = "Lib Team") {
  const made = await createTeam(db, owner.id, name);
  if (!made.ok) throw new Error("team not made");
  return (await membershipOf(db, made.team.slug, owner.id))!;
}

/** An invitation's token, read back from the mail the queue delivered is slow: made here with a known token instead. */
async function invite(owner: Membership, ownerId: string, email: string, role: "admin" | "member" = "member") {
  const result = await createInvitation(deps, owner, ownerId, { email, role });
  if (!result.ok) throw new Error(result.error);
  const token = crypto.randomUUID();
  const { sha256Hex } = await import("~/lib/crypto");
  await db
    .update(schema.teamInvitations)
    .set({ tokenHash: await sha256Hex(token) })
    .where(eq(schema.teamInvitations.id, result.id));
  return { token, id: result.id };
}

async function join(owner: Membership, ownerId: string, role: "admin" | "member" = "member") {
  const person = await account();
  const { token } = await invite(owner, ownerId, person.email, role);
  const accepted = await acceptInvitation(db, token, person);
  if (!accepted.ok) throw new Error(accepted.error);
  return person;
}

describe("teams (library)", () => {
  it("makes a team with its owner as its only member, and a unique slug", async () => {
    const owner = await account();
    const first = await teamOf(owner, "Slug Clash Team");
    const second = await teamOf(owner, "Slug Clash Team");
    expect(first.role).toBe("owner");
    expect(first.team.seats).toBe(TEAMS.unpaidSeats);
    expect(second.team.slug).not.toBe(first.team.slug);
    expect(await memberCount(db, first.team.id)).toBe(1);
  });

  it("20 parallel acceptances of one invitation make one membership", async () => {
    const owner = await account();
    const team = await teamOf(owner);
    const person = await account();
    const { token } = await invite(team, owner.id, person.email);
    const results = await Promise.all(Array.from({ length: 20 }, () => acceptInvitation(db, token, person)));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(await memberCount(db, team.team.id)).toBe(2);
    const joined = await db
      .select()
      .from(schema.teamActivity)
      .where(and(eq(schema.teamActivity.teamId, team.team.id), eq(schema.teamActivity.action, "member_joined")));
    expect(joined).toHaveLength(1);
  });

  // ADR 0036: a seat is a membership, the owner's included. Both readings of "3 seats" are here:
  // 3 seats in all (the owner holds one), and 3 seats free beside the owner's.
  for (const { seats, joins } of [
    { seats: 3, joins: 2 },
    { seats: 4, joins: 3 },
  ]) {
    it(`with ${seats} seats (one the owner's), 10 parallel acceptances of 10 invitations make ${joins} members join and ${10 - joins} clear refusals`, async () => {
      const owner = await account();
      const team = await teamOf(owner);
      await db.update(schema.teams).set({ seats }).where(eq(schema.teams.id, team.team.id));
      const people = await Promise.all(Array.from({ length: 10 }, () => account()));
      const tokens: string[] = [];
      for (const p of people) tokens.push((await invite(team, owner.id, p.email)).token);
      const results = await Promise.all(people.map((p, i) => acceptInvitation(db, tokens[i]!, p)));
      expect(results.filter((r) => r.ok)).toHaveLength(joins);
      const refusals = results.filter((r) => !r.ok);
      expect(refusals).toHaveLength(10 - joins);
      for (const r of refusals) expect(r).toMatchObject({ ok: false, error: M.noSeat });
      expect(await memberCount(db, team.team.id)).toBe(seats);
      const joined = await db
        .select()
        .from(schema.teamActivity)
        .where(and(eq(schema.teamActivity.teamId, team.team.id), eq(schema.teamActivity.action, "member_joined")));
      expect(joined).toHaveLength(joins);
    });
  }

  it("refuses used, revoked, expired invitations and other addresses", async () => {
    const owner = await account();
    const team = await teamOf(owner);
    const person = await account();
    const other = await account();
    const { token, id } = await invite(team, owner.id, person.email);
    expect(await acceptInvitation(db, token, other)).toMatchObject({ ok: false, error: M.wrongAddress });
    expect(await revokeInvitation(db, team, owner.id, id)).toBe(true);
    expect(await acceptInvitation(db, token, person)).toMatchObject({ ok: false, error: M.invitationGone });
    const again = await invite(team, owner.id, person.email);
    expect(await acceptInvitation(db, again.token, person, Date.now() + TEAMS.invitationTtlMs + 1)).toMatchObject({ ok: false, error: M.invitationGone });
    expect(await acceptInvitation(db, again.token, { ...person, email: person.email.toUpperCase() })).toMatchObject({ ok: true });
    expect(await acceptInvitation(db, again.token, person)).toMatchObject({ ok: false, error: M.joinedAlready });
  });

  it("admins cannot touch the owner; transfer makes the old owner an admin; the owner cannot leave", async () => {
    const owner = await account();
    const team = await teamOf(owner);
    const admin = await join(team, owner.id, "admin");
    const member = await join(team, owner.id);
    const asAdmin = (await membershipOf(db, team.team.slug, admin.id))!;
    expect(await removeMember(departure, asAdmin, admin.id, owner.id)).toMatchObject({ ok: false, error: M.ownerUntouchable });
    expect(await changeRole(db, asAdmin, admin.id, owner.id, "member")).toMatchObject({ ok: false, error: M.ownerUntouchable });
    expect(await leaveTeam(departure, team, owner.id)).toMatchObject({ ok: false, error: M.ownerCannotLeave });
    const asMember = (await membershipOf(db, team.team.slug, member.id))!;
    expect(await removeMember(departure, asMember, member.id, admin.id)).toMatchObject({ ok: false, error: M.notAllowed });
    expect(await changeRole(db, asAdmin, admin.id, member.id, "admin")).toEqual({ ok: true });
    expect(await transferOwnership(db, asAdmin, admin.id, member.id)).toMatchObject({ ok: false });
    expect(await transferOwnership(db, team, owner.id, member.id)).toEqual({ ok: true });
    expect((await membershipOf(db, team.team.slug, owner.id))?.role).toBe("admin");
    expect((await membershipOf(db, team.team.slug, member.id))?.role).toBe("owner");
    const [row] = await db.select({ ownerId: schema.teams.ownerId }).from(schema.teams).where(eq(schema.teams.id, team.team.id));
    expect(row?.ownerId).toBe(member.id);
    const owners = await db
      .select({ n: sql<number>`count(*)` })
      .from(schema.teamMembers)
      .where(and(eq(schema.teamMembers.teamId, team.team.id), eq(schema.teamMembers.role, "owner")));
    expect(owners[0]?.n).toBe(1);
  });
});

describe("how many invitations go out", () => {
  const openOf = async (teamId: string) =>
    (
      await db
        .select({ n: sql<number>`count(*)` })
        .from(schema.teamInvitations)
        .where(and(eq(schema.teamInvitations.teamId, teamId), sql`accepted_at IS NULL AND revoked_at IS NULL`))
    )[0]!.n;

  const { limit: perInviter, windowMs: inviterWindow } = TEAM_INVITATION_LIMITS.perInviter;
  it(`${perInviter + 10} invitations at once from one inviter, over two teams, send ${perInviter}; 10 are refused with 429 until the hour is over`, async () => {
    const owner = await account("inviter");
    const teams = [await teamOf(owner, "Burst One"), await teamOf(owner, "Burst Two")];
    const now = Date.now();
    const results = await Promise.all(
      Array.from({ length: perInviter + 10 }, (_, i) =>
        createInvitation(deps, teams[i % 2]!, owner.id, { email: uniqueEmail(`burst-${i}`), role: "member" }, now),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(perInviter);
    const refused = results.filter((r) => !r.ok);
    expect(refused).toHaveLength(10);
    for (const r of refused) expect(r).toMatchObject({ status: 429, error: INVITATION_LIMIT_MESSAGES.tooManySent, retryAfterSeconds: inviterWindow / 1000 });
    expect((await openOf(teams[0]!.team.id)) + (await openOf(teams[1]!.team.id))).toBe(perInviter);

    // An hour later the inviter may send again, up to the team's open invitations.
    const later = now + inviterWindow + 1;
    const first = teams[0]!;
    const room = TEAMS.maxOpenInvitations - (await openOf(first.team.id));
    for (let i = 0; i < room; i++)
      expect(await createInvitation(deps, first, owner.id, { email: uniqueEmail(`fill-${i}`), role: "member" }, later)).toMatchObject({ ok: true });
    expect(await createInvitation(deps, first, owner.id, { email: uniqueEmail("one-more"), role: "member" }, later)).toEqual({
      ok: false,
      error: M.tooManyInvitations,
      status: 409,
    });
  });

  const { limit: perAddress, windowMs: addressWindow } = TEAM_INVITATION_LIMITS.perAddress;
  it(`one address invited by ${perAddress + 2} teams at once gets ${perAddress} invitations, and one more a day later`, async () => {
    const invitee = uniqueEmail("flooded");
    const owners = await Promise.all(Array.from({ length: perAddress + 3 }, () => account("flooder")));
    const teams = await Promise.all(owners.map((owner) => teamOf(owner, "Flood Team")));
    const now = Date.now();
    const results = await Promise.all(
      teams.slice(0, perAddress + 2).map((team, i) => createInvitation(deps, team, owners[i]!.id, { email: invitee, role: "member" }, now)),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(perAddress);
    for (const r of results.filter((r) => !r.ok)) expect(r).toMatchObject({ status: 429, error: INVITATION_LIMIT_MESSAGES.addressFlooded });
    const rows = await db.select({ id: schema.teamInvitations.id }).from(schema.teamInvitations).where(eq(schema.teamInvitations.email, invitee));
    expect(rows).toHaveLength(perAddress);
    const last = teams.length - 1;
    expect(await createInvitation(deps, teams[last]!, owners[last]!.id, { email: invitee, role: "member" }, now + addressWindow + 1)).toMatchObject({
      ok: true,
    });
  });
});
