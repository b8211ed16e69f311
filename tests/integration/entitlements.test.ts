// Issue 14: free-tier limits that hold. GET /api/v1/entitlements tells the desktop app before a
// call whether the account may make it, from the counts its usage ledger keeps (issue 27).
import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { FREE_TIER, MS } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { type Entitlements, entitlementsFrom } from "~/lib/usage/entitlements.server";
import { windowBounds } from "~/lib/usage/windows";
import { ingestAccount, type UsageItem } from "~/lib/usage/ingest.server";
import { db, inOneMinute } from "./helpers";
import { apiUser, ledger, postUsage, report, waitForRows } from "./usage-helpers";

const zero = { minute: 0, hour: 0, day: 0, monthRequests: 0, monthTokens: 0 };

async function entitlementsOf(token: string | null) {
  const response = await SELF.fetch("http://localhost/api/v1/entitlements", { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  return { response, body: response.ok ? await response.json<Entitlements>() : null };
}

const windowOf = (e: Entitlements, window: string, unit = "requests") => e.windows.find((w) => w.window === window && w.unit === unit)!;

describe("entitlements, computed", () => {
  const now = Date.UTC(2026, 10, 23, 15, 42, 50, 0);

  it("ends the windows at the next UTC minute, hour, day and month", () => {
    const w = windowBounds(now);
    expect(new Date(w.minute.end).toISOString()).toBe("2026-11-23T15:43:00.000Z");
    expect(new Date(w.hour.end).toISOString()).toBe("2026-11-23T16:00:00.000Z");
    expect(new Date(w.day.end).toISOString()).toBe("2026-11-24T00:00:00.000Z");
    expect(new Date(w.month.end).toISOString()).toBe("2026-12-01T00:00:00.000Z");
    expect(new Date(windowBounds(Date.UTC(2026, 11, 31, 23, 59)).month.end).toISOString()).toBe("2027-01-01T00:00:00.000Z");
  });

  it("allows a free account below every limit, and says how much is left", () => {
    const e = entitlementsFrom({ ...zero, minute: 2, monthTokens: 1234 }, "free", now);
    expect(e).toMatchObject({ plan: "free", unlimited: false, allowed: true, retry_after_seconds: null, allowed_at: null });
    expect(windowOf(e, "minute")).toMatchObject({ limit: FREE_TIER.perMinute, used: 2, remaining: 1 });
    expect(windowOf(e, "month", "tokens")).toMatchObject({ limit: FREE_TIER.tokensPerMonth, used: 1234, remaining: FREE_TIER.tokensPerMonth - 1234 });
  });

  it("refuses at a limit until the window ends, and until the last exhausted window ends", () => {
    const minute = entitlementsFrom({ ...zero, minute: 3, hour: 3, day: 3, monthRequests: 3 }, "free", now);
    expect(minute).toMatchObject({ allowed: false, retry_after_seconds: 10, allowed_at: "2026-11-23T15:43:00.000Z" });
    const hourToo = entitlementsFrom({ ...zero, minute: 3, hour: 20, day: 20, monthRequests: 20 }, "free", now);
    expect(hourToo).toMatchObject({ allowed: false, retry_after_seconds: 17 * 60 + 10, allowed_at: "2026-11-23T16:00:00.000Z" });
    const tokens = entitlementsFrom({ ...zero, monthTokens: FREE_TIER.tokensPerMonth + 5 }, "free", now);
    expect(tokens).toMatchObject({ allowed: false, allowed_at: "2026-12-01T00:00:00.000Z" });
    expect(windowOf(tokens, "month", "tokens").remaining).toBe(0);
  });

  it("has no limits for subscribers and early-access members, whatever they used", () => {
    for (const plan of ["premium", "early_access"] as const) {
      const e = entitlementsFrom({ minute: 50, hour: 500, day: 5000, monthRequests: 50_000, monthTokens: 10_000_000 }, plan, now);
      expect(e).toMatchObject({ plan, unlimited: true, allowed: true, retry_after_seconds: null });
      expect(e.windows.every((w) => w.limit === null && w.remaining === null)).toBe(true);
      expect(windowOf(e, "minute").used).toBe(50);
    }
  });
});

describe("GET /api/v1/entitlements", () => {
  it("asks for a token", async () => {
    const { response } = await entitlementsOf(null);
    expect(response.status).toBe(401);
    expect((await entitlementsOf("not-a-real-token-at-all-xxxxxxxx")).response.status).toBe(401);
    const post = await SELF.fetch("http://localhost/api/v1/entitlements", { method: "POST" });
    expect(post.status).toBe(405);
  });

  it("tells a free account at its per-minute limit when it may call again; reports past it are still recorded", () =>
    inOneMinute(async () => {
      const { token, userId } = await apiUser();
      const fresh = await entitlementsOf(token);
      expect(fresh.body).toMatchObject({ plan: "free", allowed: true });
      expect(windowOf(fresh.body!, "minute")).toMatchObject({ used: 0, remaining: FREE_TIER.perMinute });

      // Three calls (the limit), then a fourth the app made anyway: all four are stored.
      const now = Date.now();
      for (let i = 0; i < 4; i++)
        expect((await postUsage(token, report({ occurred_at: now, tokens_used: 100, tokens_input: 60, tokens_output: 40 }))).status).toBe(202);
      await waitForRows(userId, 4);

      const { response, body } = await entitlementsOf(token);
      expect(response.status).toBe(200);
      const minuteEnd = windowBounds(now).minute.end;
      expect(body).toMatchObject({ plan: "free", allowed: false, allowed_at: new Date(minuteEnd).toISOString() });
      expect(body!.retry_after_seconds).toBeGreaterThanOrEqual(1);
      expect(body!.retry_after_seconds).toBeLessThanOrEqual(Math.ceil((minuteEnd - Date.now()) / 1000) + 1);
      expect(response.headers.get("Retry-After")).toBe(String(body!.retry_after_seconds));
      expect(windowOf(body!, "minute")).toMatchObject({ used: 4, remaining: 0 });
      expect(windowOf(body!, "hour")).toMatchObject({ used: 4, remaining: FREE_TIER.perHour - 4 });
      expect(windowOf(body!, "month", "tokens")).toMatchObject({ used: 400 });
    }));

  it("counts a parallel burst exactly, per account: a second user's figures stay their own", () =>
    inOneMinute(async () => {
      const [a, b] = await Promise.all([apiUser(), apiUser()]);
      const now = Date.now();
      const posted = await Promise.all(Array.from({ length: 6 }, () => postUsage(a.token, report({ occurred_at: now }))));
      expect(posted.map((r) => r.status)).toEqual(Array(6).fill(202));
      await waitForRows(a.userId, 6);
      const answers = await Promise.all([...Array.from({ length: 8 }, () => entitlementsOf(a.token)), entitlementsOf(b.token)]);
      for (const { body } of answers.slice(0, 8)) {
        expect(windowOf(body!, "minute")).toMatchObject({ used: 6, remaining: 0 });
        expect(body!.allowed).toBe(false);
      }
      const other = answers[8]!.body!;
      expect(other.allowed).toBe(true);
      expect(other.windows.every((w) => w.used === 0)).toBe(true);
    }));

  it("always allows a subscriber", async () => {
    const { token, userId } = await apiUser();
    await db.insert(schema.subscriptions).values({ id: crypto.randomUUID(), userId, status: "active", currentPeriodEnd: Date.now() + 30 * MS.DAY });
    const now = Date.now();
    for (let i = 0; i < 5; i++) expect((await postUsage(token, report({ occurred_at: now }))).status).toBe(202);
    await waitForRows(userId, 5);
    const { body } = await entitlementsOf(token);
    expect(body).toMatchObject({ plan: "premium", unlimited: true, allowed: true, retry_after_seconds: null });
    expect(windowOf(body!, "month").used).toBe(5);
  });

  it("has no limits for an early-access member while the access lasts", async () => {
    const { token, userId } = await apiUser();
    const grant = (expiresAt: number) =>
      db.update(schema.userProfiles).set({ earlyAccessStatus: "active", earlyAccessExpiresAt: expiresAt }).where(eq(schema.userProfiles.userId, userId));
    await grant(Date.now() + MS.DAY);
    expect((await entitlementsOf(token)).body).toMatchObject({ plan: "early_access", unlimited: true, allowed: true });
    // Expired early access is the free plan again.
    await grant(Date.now() - MS.MINUTE);
    expect((await entitlementsOf(token)).body).toMatchObject({ plan: "free", unlimited: false });
  });

  it("shows a free account the same figures on the usage tab, with the way to upgrade", () =>
    inOneMinute(async () => {
      const { browser, token, userId } = await apiUser();
      const now = Date.now();
      for (let i = 0; i < 2; i++)
        expect((await postUsage(token, report({ occurred_at: now, tokens_used: 1500, tokens_input: 1000, tokens_output: 500 }))).status).toBe(202);
      await waitForRows(userId, 2);
      const { body } = await entitlementsOf(token);
      const html = await (await browser.get("/dashboard/usage")).text();
      expect(html).toContain('data-testid="free-limits"');
      expect(html).toContain('href="/dashboard/billing?plans=open"');
      for (const w of body!.windows) {
        const cell = new RegExp(`data-testid="limit-${w.window}-${w.unit}"[\\s\\S]*?<dd[^>]*>([^<]+)<`).exec(html)![1];
        expect(cell, `${w.window} ${w.unit}`).toBe(`${w.used.toLocaleString("en-US")} of ${w.limit!.toLocaleString("en-US")} ${w.unit}`);
      }
      expect(windowOf(body!, "month").used).toBe(2);
      expect(windowOf(body!, "month", "tokens").used).toBe(3000);
      // The usage tab's own total for the month agrees.
      expect(html).toMatch(/data-testid="total-requests"[\s\S]*?>2</);
    }));

  it("has nothing to say to a subscriber's usage tab about free limits", async () => {
    const { browser, userId } = await apiUser();
    await db.insert(schema.subscriptions).values({ id: crypto.randomUUID(), userId, status: "active", currentPeriodEnd: null });
    expect(await (await browser.get("/dashboard/usage")).text()).not.toContain('data-testid="free-limits"');
  });

  // The hourly D1 sweep (sweepMinuteUsage) is gone by design (issue 27): the ledger keeps the
  // per-minute counts itself and deletes those older than two hours at each write. They are not
  // readable one by one, so a forgotten minute shows as a minute count of 0 at that minute while
  // the hour and day it fell in still count the report.
  it("lets the ledger forget per-minute counts older than two hours at its next write, and keeps the recent ones", async () => {
    const { userId } = await apiUser();
    const old = Date.UTC(2026, 10, 23, 12, 42, 50, 0);
    const later = old + 3 * MS.HOUR;
    const at = (occurredAt: number): UsageItem => ({
      userId,
      receivedAt: occurredAt,
      report: { ...report({ tokens_used: 1 }), occurred_at: occurredAt } as never,
    });
    const countsAt = async (t: number) => (await ledger(userId).read({ now: t, counts: true })).counts!;
    // A report written when it happened: its minute is counted.
    expect((await ingestAccount(env.USAGE_LEDGER, userId, [at(old)], [], null, old)).stored).toBe(1);
    expect(await countsAt(old)).toMatchObject({ minute: 1, hour: 1, day: 1 });

    // The next write, three hours later, forgets that minute and keeps its own and one of ten minutes before.
    expect((await ingestAccount(env.USAGE_LEDGER, userId, [at(later - 10 * MS.MINUTE), at(later)], [], null, later)).stored).toBe(2);
    expect(await countsAt(old)).toMatchObject({ minute: 0, hour: 1, day: 3 });
    expect(await countsAt(later - 10 * MS.MINUTE)).toMatchObject({ minute: 1, hour: 2, day: 3 });
    expect(await countsAt(later)).toMatchObject({ minute: 1, hour: 2, day: 3 });

    // A write with no report forgets too: 2 h 5 min after the earlier of the two, its minute is
    // gone and the other's (1 h 55 min old) is kept.
    expect(await ingestAccount(env.USAGE_LEDGER, userId, [], [], null, later + 2 * MS.HOUR - 5 * MS.MINUTE)).toMatchObject({ stored: 0 });
    expect(await countsAt(later - 10 * MS.MINUTE)).toMatchObject({ minute: 0 });
    expect(await countsAt(later)).toMatchObject({ minute: 1 });
  });
});
