// Team billing (issue 50, ADR 0037) through the Worker and the Stripe stand-in: the owner's checkout
// with a quantity, the webhook that sets the team's seats, seat changes prorated by Stripe, the
// trial once per team under a burst, who may do what, and a paid team's members' entitlements.
import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { TEAMS } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { optionById, releaseKey } from "~/lib/downloads/options";
import { publishRelease } from "~/lib/downloads/releases.server";
import { type Browser, db, visibleText } from "./helpers";
import { deliver, eventsFor, payCheckout, STANDIN, standin, waitProcessed } from "./stripe-helpers";
import { apiUser } from "./usage-helpers";

type Person = Awaited<ReturnType<typeof apiUser>>;

/** A team written straight to D1 (the teams' own pages are another part's): an owner and members. */
async function team(owner: Person, members: Person[] = [], admins: Person[] = []) {
  const id = crypto.randomUUID();
  const slug = `t-${id.slice(0, 8)}`;
  const now = Date.now();
  await db.insert(schema.teams).values({ id, slug, name: `Team ${slug}`, ownerId: owner.userId, seats: TEAMS.unpaidSeats });
  const rows = [
    { teamId: id, userId: owner.userId, role: "owner" as const, joinedAt: now },
    ...admins.map((p) => ({ teamId: id, userId: p.userId, role: "admin" as const, joinedAt: now })),
    ...members.map((p) => ({ teamId: id, userId: p.userId, role: "member" as const, joinedAt: now })),
  ];
  await db.insert(schema.teamMembers).values(rows);
  return { id, slug, path: `/dashboard/teams/${slug}/billing` };
}

const teamRow = (id: string) => db.query.teams.findFirst({ where: eq(schema.teams.id, id) });
const subscriptionRow = (id: string) => db.query.teamSubscriptions.findFirst({ where: eq(schema.teamSubscriptions.teamId, id) });

/** Delivers every stand-in event about the team's customer not yet delivered, and waits for the consumer. */
const delivered = new Set<string>();
async function deliverAll(teamId: string) {
  const customer = (await teamRow(teamId))!.stripeCustomerId!;
  for (const event of await eventsFor(customer)) {
    if (delivered.has(event.id)) continue;
    delivered.add(event.id);
    await deliver(event);
    await waitProcessed(event.id);
  }
}

/** The owner starts checkout for `seats` seats and pays on the stand-in's page. */
async function buy(owner: Browser, t: { id: string; path: string }, seats: number) {
  const checkout = await owner.post(t.path, { intent: "checkout", seats: String(seats) });
  expect(checkout.status).toBe(302);
  const url = checkout.headers.get("Location")!;
  expect(url.startsWith(`${STANDIN}/checkout/cs_`)).toBe(true);
  expect((await payCheckout(url)).status).toBe(303);
  await deliverAll(t.id);
  return url;
}

const entitlementsOf = async (token: string) =>
  (await SELF.fetch("http://localhost/api/v1/entitlements", { headers: { Authorization: `Bearer ${token}` } })).json<{ plan: string }>();

type StripeSub = {
  id: string;
  status: string;
  items: { data: Array<{ id: string; quantity: number; current_period_start: number; current_period_end: number }> };
};

beforeAll(async () => {
  const option = optionById("win-x64")!;
  const version = `8.${Date.now() % 100000}.0`;
  await env.BUCKET.put(releaseKey(option, version), new Uint8Array([1, 2, 3, 4]));
  const published = await publishRelease(db, env.BUCKET, { optionId: option.id, version, r2Key: releaseKey(option, version), publishedBy: null });
  if (!published.ok) throw new Error(published.message);
});

describe("the owner's checkout and the webhook", () => {
  it("creates a team subscription with the chosen seats, sets the team's seats, and gives the trial once", async () => {
    const [owner, member] = await Promise.all([apiUser(), apiUser()]);
    const t = await team(owner, [member]);
    const page = visibleText(await (await owner.browser.get(t.path)).text());
    expect(page).toContain("Start the Team plan");
    expect(page).toContain("2 of 3 used");

    const url = await buy(owner.browser, t, 5);
    const session = await standin<{ metadata: Record<string, string>; amount_total: number }>(`/v1/checkout/sessions/${url.split("/").pop()}`);
    expect(session.metadata).toEqual({ team_id: t.id });
    expect(session.amount_total).toBe(5 * 499);

    const row = await subscriptionRow(t.id);
    expect(row).toMatchObject({ status: "trial", quantity: 5, stripePriceId: "price_modelify_team" });
    expect(row!.trialEnd! - row!.trialStart!).toBe(TEAMS.trialDays * 86400_000);
    expect(await teamRow(t.id)).toMatchObject({ seats: 5, trialUsed: true });
    // The owner's own plan is untouched: a team's subscription is never a personal one.
    expect(await db.query.subscriptions.findFirst({ where: eq(schema.subscriptions.userId, owner.userId) })).toBeUndefined();

    const paid = visibleText(await (await owner.browser.get(t.path)).text());
    expect(paid).toContain("Trial");
    expect(paid).toContain("2 of 5 used");
    expect(paid).toContain("Change seats");
    // A second checkout while the plan is live is refused.
    const again = await owner.browser.post(t.path, { intent: "checkout", seats: "5" });
    expect(again.status).toBe(409);
  });

  it("refuses fewer seats than members, and bad input, writing nothing", async () => {
    const [owner, a, b] = await Promise.all([apiUser(), apiUser(), apiUser()]);
    const t = await team(owner, [a, b]);
    const below = await owner.browser.post(t.path, { intent: "checkout", seats: "2" });
    expect(below.status).toBe(400);
    expect(await below.text()).toContain("needs at least 3 seats");
    for (const seats of ["0", "abc", "1001", "2.5"]) {
      const bad = await owner.browser.post(t.path, { intent: "checkout", seats });
      expect(bad.status, seats).toBe(400);
    }
    expect(await teamRow(t.id)).toMatchObject({ stripeCustomerId: null, trialUsed: false });
  });

  it("gives one trial to parallel checkouts of one team", async () => {
    const owner = await apiUser();
    const t = await team(owner);
    const answers = await Promise.all(Array.from({ length: 6 }, () => owner.browser.post(t.path, { intent: "checkout", seats: "2" })));
    expect(answers.map((r) => r.status)).toEqual([302, 302, 302, 302, 302, 302]);
    const sessions = await Promise.all(answers.map((r) => standin<{ id: string }>(`/v1/checkout/sessions/${r.headers.get("Location")!.split("/").pop()}`)));
    const pages = await Promise.all(answers.map(async (r) => (await fetch(r.headers.get("Location")!)).text()));
    expect(pages.filter((html) => html.includes("days free")).length).toBe(1);
    expect(new Set(sessions.map((s) => s.id)).size).toBe(6);
    expect((await teamRow(t.id))!.trialUsed).toBe(true);
  });
});

describe("who may see and change a team's billing", () => {
  it("lets admins look, and answers 404 to members and strangers, for pages and every action", async () => {
    const [owner, admin, member, stranger] = await Promise.all([apiUser(), apiUser(), apiUser(), apiUser()]);
    const t = await team(owner, [member], [admin]);
    const adminPage = await admin.browser.get(t.path);
    expect(adminPage.status).toBe(200);
    expect(visibleText(await adminPage.text())).not.toContain("Start the Team plan");
    for (const person of [member, stranger]) expect((await person.browser.get(t.path)).status).toBe(404);
    expect((await owner.browser.get("/dashboard/teams/no-such-team/billing")).status).toBe(404);
    for (const person of [admin, member, stranger]) {
      for (const fields of [{ intent: "checkout", seats: "3" }, { intent: "seats", seats: "4" }, { intent: "portal" }] as Record<string, string>[]) {
        expect((await person.browser.post(t.path, fields)).status, `${fields.intent}`).toBe(404);
      }
    }
    expect((await teamRow(t.id))!.stripeCustomerId).toBeNull();
    // Another team's owner is a stranger here too.
    const other = await team(stranger);
    expect((await owner.browser.get(other.path)).status).toBe(404);
  });
});

describe("seats added and removed", () => {
  it("prorates through Stripe, refuses going below the members, and opens the portal", async () => {
    const [owner, member] = await Promise.all([apiUser(), apiUser()]);
    const t = await team(owner, [member]);
    await buy(owner.browser, t, 3);
    const stored = (await subscriptionRow(t.id))!;
    // Out of the trial, so that Stripe charges for the change.
    await standin(`/v1/subscriptions/${stored.stripeSubscriptionId}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "trial_end=now",
    });
    await deliverAll(t.id);
    expect((await subscriptionRow(t.id))!.status).toBe("active");

    const more = await owner.browser.post(t.path, { intent: "seats", seats: "6" });
    expect(more.status).toBe(303);
    expect(more.headers.get("Location")).toBe(`${t.path}?seats=6`);
    expect(await teamRow(t.id)).toMatchObject({ seats: 6 });
    const sub = await standin<StripeSub>(`/v1/subscriptions/${stored.stripeSubscriptionId}`);
    expect(sub.items.data[0]!.quantity).toBe(6);

    const customer = (await teamRow(t.id))!.stripeCustomerId!;
    type Item = { amount: number; proration: boolean; period: { start: number; end: number } };
    const items = await standin<{ data: Item[] }>(`/v1/invoiceitems?customer=${customer}&pending=true`);
    expect(items.data).toHaveLength(1);
    const { current_period_start: start, current_period_end: end } = sub.items.data[0]!;
    const at = items.data[0]!.period.start;
    expect(items.data[0]!.proration).toBe(true);
    expect(items.data[0]!.amount).toBe(Math.round((499 * 3 * (end - at)) / (end - start)));
    expect(items.data[0]!.amount).toBeGreaterThan(1490); // three seats for (almost) a whole period

    const below = await owner.browser.post(t.path, { intent: "seats", seats: "1" });
    expect(below.status).toBe(409);
    expect(await below.text()).toContain("needs at least 2 seats");
    expect((await standin<StripeSub>(`/v1/subscriptions/${sub.id}`)).items.data[0]!.quantity).toBe(6);

    const fewer = await owner.browser.post(t.path, { intent: "seats", seats: "2" });
    expect(fewer.status).toBe(303);
    const credits = await standin<{ data: Item[] }>(`/v1/invoiceitems?customer=${customer}&pending=true`);
    expect(credits.data).toHaveLength(2);
    expect(credits.data[0]!.amount).toBe(Math.round((499 * -4 * (end - credits.data[0]!.period.start)) / (end - start)));
    await deliverAll(t.id);
    expect(await teamRow(t.id)).toMatchObject({ seats: 2 });
    const changes = await db.query.teamActivity.findMany({ where: eq(schema.teamActivity.teamId, t.id) });
    expect(changes.filter((c) => c.action === "seats_changed" && c.actorId === owner.userId).map((c) => c.details)).toEqual([
      expect.objectContaining({ from: 3, to: 6, source: "owner" }),
      expect.objectContaining({ from: 6, to: 2, source: "owner" }),
    ]);

    const portal = await owner.browser.post(t.path, { intent: "portal" });
    expect(portal.status).toBe(302);
    expect(portal.headers.get("Location")!.startsWith(`${STANDIN}/portal/bps_`)).toBe(true);
  });
});

describe("a paid team's members", () => {
  it("get the premium entitlements and downloads while the plan lives, and lose them when it ends", async () => {
    const [owner, member, outsider] = await Promise.all([apiUser(), apiUser(), apiUser()]);
    const t = await team(owner, [member]);
    expect((await entitlementsOf(member.token)).plan).toBe("free");
    expect((await member.browser.post("/downloads/prepare", { platform: "windows", arch: "x64" })).status).toBe(403);

    await buy(owner.browser, t, 2);
    expect((await entitlementsOf(member.token)).plan).toBe("premium");
    expect((await entitlementsOf(owner.token)).plan).toBe("premium");
    expect((await entitlementsOf(outsider.token)).plan).toBe("free");
    const link = await member.browser.post("/downloads/prepare", { platform: "windows", arch: "x64" });
    expect(link.status).toBe(200);
    expect(((await link.json()) as { download_url: string }).download_url).toContain("/downloads/file/");

    const stored = (await subscriptionRow(t.id))!;
    await standin(`/v1/subscriptions/${stored.stripeSubscriptionId}`, { method: "DELETE" });
    await deliverAll(t.id);
    expect((await subscriptionRow(t.id))!.status).toBe("canceled");
    expect((await entitlementsOf(member.token)).plan).toBe("free");
    expect((await member.browser.post("/downloads/prepare", { platform: "windows", arch: "x64" })).status).toBe(403);
    // Back to the unpaid allowance, never below the members.
    expect((await teamRow(t.id))!.seats).toBe(Math.max(TEAMS.unpaidSeats, 2));
  });

  it("ends the entitlement when the paid period has passed, even before Stripe says so", async () => {
    const [owner, member] = await Promise.all([apiUser(), apiUser()]);
    const t = await team(owner, [member]);
    await buy(owner.browser, t, 2);
    await db
      .update(schema.teamSubscriptions)
      .set({ trialEnd: Date.now() - 1000 })
      .where(eq(schema.teamSubscriptions.teamId, t.id));
    expect((await entitlementsOf(member.token)).plan).toBe("free");
  });
});
