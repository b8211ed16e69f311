// Issue 50: a removal takes effect at once. A member removed from a paid team (or leaving it) loses,
// within a second, the live socket of the team's usage page and the paid plan's entitlement of the
// device key they chose for the team; the owner and the other members keep theirs.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MS } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { createConfirmedUser, db, ORIGIN, waitFor } from "./helpers";
import { type OpenSocket, openLiveSocket, stillOpen } from "./live-socket";
import { insertTeam } from "./team-helpers";
import { deviceKey } from "./usage-helpers";

/** A team with a live Team plan, written straight to D1: its owner and members. */
async function paidTeam(ownerId: string, memberIds: string[]) {
  const team = await insertTeam({ ownerId, members: memberIds });
  await db
    .insert(schema.teamSubscriptions)
    .values({ id: crypto.randomUUID(), teamId: team.id, status: "active", quantity: 10, currentPeriodEnd: Date.now() + 30 * MS.DAY });
  return team;
}

const planOf = async (token: string) => {
  const answer = await SELF.fetch(`${ORIGIN}/api/v1/entitlements`, { headers: { Authorization: `Bearer ${token}` } });
  expect(answer.status).toBe(200);
  return (await answer.json<{ plan: string }>()).plan;
};

/** The socket closed (code 4004: no longer a member) and the key's plan is free, both within a second of `since`. */
async function endedWithinASecond(socket: OpenSocket, token: string, since: number, what: string) {
  await waitFor(() => socket.closed() !== null, `${what}: the socket's close`, 1_000);
  expect(socket.closed()!.code, what).toBe(4004);
  expect(await planOf(token), what).toBe("free");
  expect(Date.now() - since, what).toBeLessThanOrEqual(1_000);
}

describe("removal takes effect at once", () => {
  it("ends a removed member's team socket and paid entitlement within a second, and a leaving member's; the owner keeps theirs", {
    timeout: 60_000,
  }, async () => {
    const [owner, removed, leaving] = await Promise.all([createConfirmedUser(), createConfirmedUser(), createConfirmedUser()]);
    const team = await paidTeam(owner.id, [removed.id, leaving.id]);
    const keys = {
      owner: await deviceKey(owner.browser, team.slug),
      removed: await deviceKey(removed.browser, team.slug),
      leaving: await deviceKey(leaving.browser, team.slug),
    };
    expect(keys.removed.team?.slug).toBe(team.slug);
    for (const key of Object.values(keys)) expect(await planOf(key.access_token)).toBe("premium");
    const sockets = {
      owner: await openLiveSocket(owner.browser, `/dashboard/teams/${team.slug}/usage/live`),
      removed: await openLiveSocket(removed.browser, `/dashboard/teams/${team.slug}/usage/live`),
      leaving: await openLiveSocket(leaving.browser, `/dashboard/teams/${team.slug}/usage/live`),
    };

    let since = Date.now();
    expect((await owner.browser.post(`/dashboard/teams/${team.slug}/members`, { intent: "remove", userId: removed.id })).status).toBe(303);
    await endedWithinASecond(sockets.removed, keys.removed.access_token, since, "removed");
    expect((await removed.browser.get(`/dashboard/teams/${team.slug}/usage`)).status).toBe(404);
    expect((await removed.browser.get(`/dashboard/teams/${team.slug}/usage/live`, { headers: { Upgrade: "websocket", Origin: ORIGIN } })).status).toBe(404);
    await stillOpen(sockets.leaving, "another member's socket");
    await stillOpen(sockets.owner, "the owner's socket");

    since = Date.now();
    expect((await leaving.browser.post(`/dashboard/teams/${team.slug}`, { intent: "leave" })).status).toBe(303);
    await endedWithinASecond(sockets.leaving, keys.leaving.access_token, since, "left");

    await stillOpen(sockets.owner, "the owner's socket");
    expect(await planOf(keys.owner.access_token)).toBe("premium");
    sockets.owner.ws.close(1000, "done");
  });
});
