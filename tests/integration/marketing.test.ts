// First-party marketing events (ADR 0013): browsers may report page views only, through /events,
// capped per client address; every conversion is recorded by the server that made it, once per
// account; the queue's consumer writes them; the admin funnel counts exactly what was recorded.
import { env, SELF } from "cloudflare:test";
import { and, asc, count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { MARKETING, MS } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { emptyFunnel, weekStart } from "~/lib/marketing/events";
import { loadFunnel, marketingEventMessage } from "~/lib/marketing/events.server";
import { Browser, createConfirmedUser, db, ORIGIN, queueSettled, signedInAs, signUpAndConfirm, STRONG_PASSWORD, uniqueEmail, uniqueIp } from "./helpers";
import { deliver, eventsFor, payCheckout, standin, STANDIN, waitProcessed } from "./stripe-helpers";

const table = schema.marketingEvents;

async function eventsOf(userId: string) {
  return db.select().from(table).where(eq(table.userId, userId)).orderBy(asc(table.id));
}

async function userIdOf(email: string) {
  return (await db.query.users.findFirst({ where: eq(schema.users.email, email) }))!.id;
}

/** Polls until `read` satisfies `done` (events arrive through the queue, a batch waits up to 1 s). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    value = await read();
  }
  return value;
}

/** Waits long enough for anything wrongly queued to have landed (a batch waits up to 1 s). */

function postEvent(browser: Browser, body: unknown, headers: Record<string, string> = {}) {
  return SELF.fetch(`${ORIGIN}/events`, {
    method: "POST",
    redirect: "manual",
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { Cookie: browser.cookieHeader(), Origin: ORIGIN, "CF-Connecting-IP": browser.ip, "Content-Type": "application/json", ...headers },
  });
}

describe("page views from the browser", () => {
  it("records a view with the session's user id and the path without its query, and nothing else", async () => {
    const { browser, email } = await createConfirmedUser();
    const userId = await userIdOf(email);
    const response = await postEvent(browser, { name: "PricingView", path: "/pricing?email=ada%40example.com#plans", userId: "someone-else" });
    expect(response.status).toBe(204);
    expect(response.headers.getSetCookie()).toEqual([]);
    const rows = await until(
      () => eventsOf(userId),
      (r) => r.some((e) => e.name === "PricingView"),
    );
    expect(rows.filter((e) => e.name === "PricingView")).toEqual([
      expect.objectContaining({ name: "PricingView", userId, path: "/pricing", dedupeKey: null, occurredAt: expect.any(Number) }),
    ]);
    // A visitor's view carries no id at all.
    const visitor = new Browser();
    expect((await postEvent(visitor, { name: "ViewContent", path: "/" })).status).toBe(204);
  });

  it("refuses conversions, unknown names, foreign paths and malformed requests, and records none of them", async () => {
    const { browser, email } = await createConfirmedUser();
    const userId = await userIdOf(email);
    await queueSettled(); // the sign-up's own events
    const before = (await eventsOf(userId)).length;
    for (const name of ["CompleteRegistration", "EmailConfirmed", "StartTrial", "Subscribe", "Lead", "WaitlistSubmission", "AuthComplete", "Purchase", ""]) {
      expect((await postEvent(browser, { name, path: "/" })).status, name).toBe(400);
    }
    for (const path of ["https://evil.example/", "//evil.example/", "pricing", "", `/${"a".repeat(900)}`]) {
      expect((await postEvent(browser, { name: "ViewContent", path })).status, path).toBe(400);
    }
    expect((await postEvent(browser, { name: "ViewContent" })).status).toBe(400);
    expect((await postEvent(browser, "{not json")).status).toBe(400);
    expect((await postEvent(browser, { name: "ViewContent", path: "/" }, { "Content-Type": "text/plain" })).status).toBe(415);
    expect((await postEvent(browser, { name: "ViewContent", path: "/", padding: "x".repeat(4000) })).status).toBe(413);
    expect((await postEvent(browser, { name: "ViewContent", path: "/" }, { Origin: "https://evil.example" })).status).toBe(403);
    expect((await browser.get("/events")).status).toBe(405);
    await queueSettled();
    expect(await eventsOf(userId)).toHaveLength(before);
  });

  it("takes at most 120 events per client address an hour, counted atomically in a parallel burst", async () => {
    const { browser, email } = await createConfirmedUser();
    const userId = await userIdOf(email);
    const burst = new Browser(uniqueIp());
    burst.cookies = browser.cookies;
    const limit = MARKETING.browserEventsPerIp.limit;
    const answers = await Promise.all(Array.from({ length: limit + 15 }, () => postEvent(burst, { name: "ViewContent", path: "/" })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 204)).toHaveLength(limit);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    const refused = answers.find((a) => a.status === 429)!;
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(3000);
    const views = await until(
      async () => (await eventsOf(userId)).filter((e) => e.name === "ViewContent").length,
      (n) => n >= limit,
    );
    await queueSettled();
    expect((await eventsOf(userId)).filter((e) => e.name === "ViewContent")).toHaveLength(limit);
    expect(views).toBe(limit);
    // Another address is not affected.
    expect((await postEvent(new Browser(), { name: "ViewContent", path: "/" })).status).toBe(204);
  });
});

describe("conversions recorded by the server", () => {
  it("records sign-up, confirmation, sign-ins on the web, the first trial and the first paid period, each milestone once", async () => {
    const { browser, email } = await signUpAndConfirm();
    const userId = await userIdOf(email);
    const names = async () => (await eventsOf(userId)).map((e) => e.name).sort();
    expect(await until(names, (n) => n.length >= 3), "sign-up (consumer), confirmation and its sign-in").toEqual([
      "AuthComplete",
      "CompleteRegistration",
      "EmailConfirmed",
    ]);

    // Signing in again on the web counts; the desktop app's sign-in does not.
    expect((await new Browser().post("/auth?mode=signin", { intent: "signin", email, password: STRONG_PASSWORD })).status).toBe(200);
    const desktop = await SELF.fetch(`${ORIGIN}/api/v1/auth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": uniqueIp() },
      body: JSON.stringify({ email, password: STRONG_PASSWORD }),
    });
    expect(desktop.status).toBe(200);
    await until(names, (n) => n.length >= 4);
    await queueSettled();
    expect(await names()).toEqual(["AuthComplete", "AuthComplete", "CompleteRegistration", "EmailConfirmed"]);

    // A trial through Stripe Checkout, its events delivered twice: one StartTrial.
    const checkout = await browser.post("/billing/checkout", {});
    expect(checkout.headers.get("Location")!.startsWith(`${STANDIN}/checkout/`)).toBe(true);
    expect((await payCheckout(checkout.headers.get("Location")!)).status).toBe(303);
    const profile = await db.query.userProfiles.findFirst({ where: eq(schema.userProfiles.userId, userId) });
    const customer = profile!.stripeCustomerId!;
    for (let round = 0; round < 2; round++) {
      for (const event of await eventsFor(customer)) await deliver(event);
    }
    for (const event of await eventsFor(customer)) await waitProcessed(event.id);
    expect((await eventsOf(userId)).filter((e) => e.name === "StartTrial")).toEqual([expect.objectContaining({ dedupeKey: `StartTrial:${userId}`, userId })]);

    // The trial ends and the first period is paid: one Subscribe, however often Stripe says so.
    const sub = await db.query.subscriptions.findFirst({ where: eq(schema.subscriptions.userId, userId) });
    await standin(`/v1/subscriptions/${sub!.stripeSubscriptionId}`, { method: "POST", body: new URLSearchParams({ trial_end: "now" }) });
    for (let round = 0; round < 2; round++) {
      for (const event of await eventsFor(customer)) await deliver(event);
    }
    for (const event of await eventsFor(customer)) await waitProcessed(event.id);
    expect((await db.query.subscriptions.findFirst({ where: eq(schema.subscriptions.userId, userId) }))!.status).toBe("active");
    const after = await eventsOf(userId);
    expect(after.filter((e) => e.name === "Subscribe")).toEqual([expect.objectContaining({ dedupeKey: `Subscribe:${userId}` })]);
    expect(after.filter((e) => e.name === "StartTrial")).toHaveLength(1);
    // No address, name or IP is stored anywhere in an event.
    expect(JSON.stringify(after)).not.toContain(email);
  });

  it("records a waitlist join once per entry and a contact message as a Lead", async () => {
    const before = await db.select({ n: count() }).from(table).where(eq(table.name, "WaitlistSubmission"));
    const address = uniqueEmail("waitlist");
    const visitor = new Browser();
    const join = { email: address, firstName: "Grace", lastName: "Hopper", company: "", website: "" };
    const answers = await Promise.all([visitor.post("/early-access", join), visitor.post("/early-access", join), visitor.post("/early-access", join)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const entry = await db.query.waitlist.findFirst({ where: eq(schema.waitlist.email, address) });
    const mine = async () =>
      db
        .select()
        .from(table)
        .where(eq(table.dedupeKey, `WaitlistSubmission:${entry!.id}`));
    expect(await until(mine, (r) => r.length > 0)).toEqual([expect.objectContaining({ name: "WaitlistSubmission", userId: null })]);
    await queueSettled();
    expect(await mine()).toHaveLength(1);
    const total = await db.select({ n: count() }).from(table).where(eq(table.name, "WaitlistSubmission"));
    expect(total[0]!.n).toBeGreaterThanOrEqual(before[0]!.n + 1);

    const { browser, email } = await createConfirmedUser();
    const userId = await userIdOf(email);
    const sent = await browser.post("/contact", { name: "Ada Lovelace", email, subject: "Hello", message: "A question", priority: "low", website: "" });
    expect(sent.status).toBe(200);
    const leads = await until(
      async () => (await eventsOf(userId)).filter((e) => e.name === "Lead"),
      (r) => r.length > 0,
    );
    expect(leads).toEqual([expect.objectContaining({ name: "Lead", userId, dedupeKey: expect.stringMatching(/^Lead:/) })]);
  });
});

describe("the funnel", () => {
  it("counts exactly the events that went through the queue, per week, each milestone once", async () => {
    // Weeks of their own, long ago, so other tests' events cannot touch these counts.
    const now = Date.UTC(2021, 2, 10, 12); // a Wednesday
    const thisWeek = weekStart(now);
    const lastWeek = thisWeek - 7 * MS.DAY;
    const at = (week: number, hours: number) => week + hours * MS.HOUR;
    const tag = crypto.randomUUID().slice(0, 8);
    const generated = [
      ...Array.from({ length: 7 }, (_, i) => ({ name: "ViewContent" as const, occurredAt: at(thisWeek, i), path: "/" })),
      ...Array.from({ length: 4 }, (_, i) => ({ name: "ViewContent" as const, occurredAt: at(lastWeek, i), path: "/" })),
      ...["a", "b", "c"].map((u) => ({ name: "CompleteRegistration" as const, occurredAt: at(thisWeek, 1), dedupeKey: `funnel-${tag}-signup-${u}` })),
      // A redelivered milestone is not a second sign-up.
      { name: "CompleteRegistration" as const, occurredAt: at(thisWeek, 2), dedupeKey: `funnel-${tag}-signup-a` },
      { name: "CompleteRegistration" as const, occurredAt: at(lastWeek, 3), dedupeKey: `funnel-${tag}-signup-d` },
      ...["a", "b"].map((u) => ({ name: "EmailConfirmed" as const, occurredAt: at(thisWeek, 3), dedupeKey: `funnel-${tag}-confirm-${u}` })),
      { name: "StartTrial" as const, occurredAt: at(thisWeek, 4), dedupeKey: `funnel-${tag}-trial-a` },
      { name: "Subscribe" as const, occurredAt: at(lastWeek, 5), dedupeKey: `funnel-${tag}-paid-z` },
      // Not stages of the funnel.
      { name: "PricingView" as const, occurredAt: at(thisWeek, 1), path: "/pricing" },
      { name: "Lead" as const, occurredAt: at(thisWeek, 1) },
      { name: "AuthComplete" as const, occurredAt: at(thisWeek, 1) },
      // Before the funnel's span.
      { name: "ViewContent" as const, occurredAt: thisWeek - MARKETING.funnelWeeks * 7 * MS.DAY, path: "/" },
    ];
    await env.EVENTS.sendBatch(generated.map((e) => ({ body: marketingEventMessage(e), contentType: "json" as const })));
    const expected = emptyFunnel(now);
    Object.assign(expected.at(-1)!, { visits: 7, signUps: 3, confirmed: 2, usedApp: 0, trials: 1, paid: 0 });
    Object.assign(expected.at(-2)!, { visits: 4, signUps: 1, confirmed: 0, usedApp: 0, trials: 0, paid: 1 });
    const funnel = await until(
      () => loadFunnel(db, now),
      (f) => JSON.stringify(f) === JSON.stringify(expected),
    );
    await queueSettled();
    expect(await loadFunnel(db, now)).toEqual(expected);
    expect(funnel).toHaveLength(MARKETING.funnelWeeks);
    expect(funnel.map((w) => new Date(w.weekStart).getUTCDay())).toEqual(Array(MARKETING.funnelWeeks).fill(1));
  });

  it("is shown to admins only, as eight weeks with this week's counts", async () => {
    const [admin, user] = [(await signedInAs("admin")).browser, (await signedInAs("user")).browser];
    expect((await user.get("/dashboard/admin/funnel")).status).toBe(404);
    expect((await user.get("/dashboard/admin/funnel.data")).status).toBe(404);
    expect((await new Browser().get("/dashboard/admin/funnel")).status).toBe(302);

    const funnel = await loadFunnel(db);
    const page = await admin.get("/dashboard/admin/funnel");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Conversion funnel");
    expect(html.match(/<tr [^>]*data-week="/g)).toHaveLength(MARKETING.funnelWeeks);
    const current = new Date(funnel.at(-1)!.weekStart).toISOString().slice(0, 10);
    const row = html.slice(html.indexOf(`data-week="${current}"`), html.indexOf("</tr>", html.indexOf(`data-week="${current}"`)));
    expect(row).toContain("This week");
    // Counts can only grow while the page renders (other tests run beside this one).
    const shown = [...row.matchAll(/data-stage="(\w+)"[^>]*>([\d,]+)/g)].map(([, stage, n]) => [stage, Number(n!.replace(/,/g, ""))] as const);
    expect(shown.map(([stage]) => stage)).toEqual(["visits", "signUps", "confirmed", "usedApp", "trials", "paid"]);
    for (const [stage, n] of shown) expect(n).toBeGreaterThanOrEqual(funnel.at(-1)![stage as "visits"]);
    const rows = await db
      .select({ n: count() })
      .from(table)
      .where(and(eq(table.name, "ViewContent")));
    expect(rows[0]!.n).toBeGreaterThan(0);
  });
});
