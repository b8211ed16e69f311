// The account's time zone drives every day and hour of its usage (ADR 0030), through the real
// Worker, queue and ledger: a quarter-hour zone (Asia/Kathmandu, +5:45) splits what UTC counts as
// one day, the zone's change redraws the history with every total kept, daylight-saving days have
// 23 and 25 hourly slots, and a daily budget starts again at the account's midnight.
import { createMessageBatch, env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { gatherAccountData } from "~/lib/account/export-data.server";
import { MS } from "~/lib/constants";
import { formatsFor } from "~/lib/format";
import { schema } from "~/lib/db.server";
import { handleEventBatch } from "~/lib/queue/dispatch.server";
import { UTC } from "~/lib/time-zone";
import { usageTab } from "~/lib/usage/usage-tab.server";
import { presetView } from "~/lib/usage/usage-range";
import { saveBudget } from "~/lib/usage/budget.server";
import { dayKey } from "~/lib/usage/dates";
import type { Entitlements } from "~/lib/usage/windows";
import type { LedgerUsage } from "~/lib/usage/ledger/types";
import { resolveWebAuth } from "~/server/auth.server";
import type { AppContext } from "~/server/context.server";
import { parseConsumerEnv } from "../../workers/consumer-env";
import { type Browser, db, insertUser, keySettings, profileFormFields, queueSettled, uniqueEmail } from "./helpers";
import { apiUser, ledger, ledgerSql, postUsage, recordingQueue, report, waitForRows } from "./usage-helpers";

const sources = { db, ledgers: env.USAGE_LEDGER };

async function saveZone(browser: Browser, email: string, zone: string) {
  const response = await browser.post("/dashboard/profile?edit=1", profileFormFields(email, { timezone: zone }));
  expect(response.status, await response.clone().text()).toBeLessThan(400);
}

/** The signed-in user as a page's loader has it: read with the session's statement, zone included. */
async function pageUser(browser: Browser) {
  const app = { db, env: keySettings, ctx: { waitUntil: () => {} } } as unknown as AppContext;
  const request = new Request("http://localhost/dashboard/usage", { headers: { Cookie: browser.cookieHeader() } });
  return (await resolveWebAuth(request, app)).auth.user!;
}

/** The usage page's 7-day figures: the days that have requests, and the range's totals. */
async function usagePageDays(browser: Browser) {
  const user = await pageUser(browser);
  const now = Date.now();
  const tab = await usageTab(sources, user, presetView("7d", now, user.profile.timeZone), now);
  const zone = user.profile.timeZone;
  // Each day by its first instant, named here by its date in the zone.
  const days = tab.activityByDay.filter((d) => d.requests > 0).map((d) => ({ day: dayKey(d.start, zone), requests: d.requests }));
  return { zone, days, totals: tab.totals };
}

/** The CSV's daily rows with requests (date, cost, requests), its header and its zone row, unquoted. */
async function csvDays(browser: Browser) {
  const text = await (await browser.get("/dashboard/usage.csv")).text();
  const lines = text.split("\r\n").map((line) => line.split(",").map((cell) => cell.replace(/^"|"$/g, "")));
  const daily = lines.slice(
    2,
    lines.findIndex((cells) => cells.join("") === ""),
  );
  return {
    dateHeader: lines[1]![0],
    days: daily.filter((cells) => Number(cells[2]) > 0).map((cells) => cells.slice(0, 3)),
    zone: lines.find((cells) => cells[0] === "Time Zone")?.[1],
  };
}

describe("an account in Asia/Kathmandu (+5:45)", () => {
  it("sees 18:10 and 18:20 UTC on two local days on the usage page, in the CSV and in the data export; in UTC on one, every total unchanged", async () => {
    const { browser, email, token, userId } = await apiUser();
    await saveZone(browser, email, "Asia/Kathmandu");
    // Yesterday in UTC: 18:10 is 23:55 in Kathmandu, 18:20 is 00:05 of the next local day.
    const day = dayKey(Date.now() - MS.DAY, UTC);
    const before = `${day}T18:10:00Z`;
    const after = `${day}T18:20:00Z`;
    const reports = [report({ occurred_at: before, cost_usd: 0.25, tokens_used: 1500 }), report({ occurred_at: after, cost_usd: 0.5, tokens_used: 2500 })];
    expect((await postUsage(token, { reports })).status).toBe(202);
    await waitForRows(userId, 2);
    await queueSettled();

    const local = await usagePageDays(browser);
    expect(local.zone).toBe("Asia/Kathmandu");
    const localDays = [dayKey(Date.parse(before), "Asia/Kathmandu"), dayKey(Date.parse(after), "Asia/Kathmandu")];
    expect(localDays[0]).not.toBe(localDays[1]);
    expect(local.days).toEqual(localDays.map((d) => ({ day: d, requests: 1 })));
    expect(local.totals).toEqual({ spend: 0.75, tokens: 4000, requests: 2 });

    expect(await csvDays(browser)).toEqual({
      dateHeader: "Date (Asia/Kathmandu)",
      days: [
        [localDays[0], "0.2500", "1"],
        [localDays[1], "0.5000", "1"],
      ],
      zone: "Asia/Kathmandu",
    });

    const exported = async () => {
      const data = await gatherAccountData({ db, env: parseConsumerEnv(env), ledgers: env.USAGE_LEDGER }, { id: userId, email });
      return { zone: data.timeZone, days: data.usageReports.map((r) => r.local_date).sort(), times: data.usageReports.map((r) => r.local_time).sort() };
    };
    expect(await exported()).toEqual({
      zone: "Asia/Kathmandu",
      days: localDays,
      times: [`${localDays[0]}T23:55:00.000+05:45`, `${localDays[1]}T00:05:00.000+05:45`],
    });

    // The desktop API's times are written in the account's zone; its windows stay UTC.
    const answer = await (await SELF.fetch("http://localhost/api/v1/entitlements", { headers: { Authorization: `Bearer ${token}` } })).json<Entitlements>();
    expect(answer.time_zone).toBe("Asia/Kathmandu");
    for (const w of answer.windows) expect(w.resets_at, w.window).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00\.000\+05:45$/);
    const dayEnds = Date.parse(answer.windows.find((w) => w.window === "day")!.resets_at);
    expect(dayEnds).toBe(Date.parse(`${dayKey(Date.now(), UTC)}T00:00:00Z`) + MS.DAY);
    expect(answer.windows.find((w) => w.window === "day")!.resets_at).toMatch(/T05:45:00\.000\+05:45$/);

    // Switched to UTC through the profile: the history is drawn again at once, on one day.
    await saveZone(browser, email, UTC);
    const utc = await usagePageDays(browser);
    expect(utc.zone).toBe(UTC);
    expect(utc.days).toEqual([{ day, requests: 2 }]);
    expect(utc.totals).toEqual(local.totals);
    expect(await csvDays(browser)).toEqual({ dateHeader: "Date (UTC)", days: [[day, "0.7500", "2"]], zone: UTC });
    expect(await exported()).toEqual({ zone: UTC, days: [day, day], times: [`${day}T18:10:00.000Z`, `${day}T18:20:00.000Z`] });
    // No raw report was rewritten.
    expect((await ledgerSql(userId, "SELECT occurred_at FROM reports ORDER BY occurred_at")).map((r) => r.occurred_at)).toEqual([
      Date.parse(before),
      Date.parse(after),
    ]);
  });
});

let n = 0;
function usageAt(occurredAt: number, costMicros = 10_000): LedgerUsage {
  n += 1;
  return {
    id: crypto.randomUUID(),
    occurredAt,
    receivedAt: occurredAt,
    modelName: n % 2 ? "gpt-4o" : "claude-sonnet-4",
    modelProvider: n % 2 ? "openai" : "anthropic",
    requestType: "chat",
    tokensUsed: 100 + n,
    tokensInput: 60,
    tokensOutput: 40,
    costMicros,
    durationMs: 500,
    success: true,
    errorMessage: null,
    metadata: null,
    conversationId: null,
    appVersion: "1.0.5",
    appInstanceId: "i-1",
    deviceId: null,
  };
}

describe("an account in America/New_York", () => {
  it("has 23 hourly slots on 8 March 2026 and 25 on 1 November 2026, each day's total the sum of its reports", async () => {
    const zone = "America/New_York";
    const userId = crypto.randomUUID();
    const account = { id: userId, profile: { timeZone: zone } };
    const cases = [
      // 00:00 EST to 00:00 EDT: 23 hours.
      { day: "2026-03-08", from: Date.parse("2026-03-08T05:00:00Z"), to: Date.parse("2026-03-09T04:00:00Z"), slots: 23 },
      // 00:00 EDT to 00:00 EST: 25 hours, 01:00 twice.
      { day: "2026-11-01", from: Date.parse("2026-11-01T04:00:00Z"), to: Date.parse("2026-11-02T05:00:00Z"), slots: 25 },
    ];
    for (const c of cases) {
      // A report every 20 minutes of the local day, and one a minute before it (the day before's).
      const inside = Array.from({ length: (c.to - c.from) / (20 * MS.MINUTE) }, (_, i) => usageAt(c.from + i * 20 * MS.MINUTE + 7 * MS.MINUTE));
      const now = c.to + 2 * MS.HOUR;
      const result = await ledger(userId).ingest({ usage: [usageAt(c.from - MS.MINUTE), ...inside], secure: [], budget: null, now, zone });
      expect(result.stored).toBe(inside.length + 1);

      // The usage page's day view on that day, in the last hour of it.
      const tab = await usageTab(sources, account, presetView("1d", c.to - 30 * MS.MINUTE, zone), c.to - 30 * MS.MINUTE);
      expect(tab.series, c.day).toHaveLength(c.slots);
      expect(tab.series.map((s) => s.requests)).toEqual(Array(c.slots).fill(3));
      expect(tab.totals.requests).toBe(inside.length);
      expect(tab.totals.spend).toBeCloseTo(inside.reduce((s, r) => s + r.costMicros, 0) / 1e6, 9);
      expect(tab.totals.tokens).toBe(inside.reduce((s, r) => s + r.tokensUsed, 0));
      const week = await usageTab(sources, account, presetView("7d", now, zone), now);
      expect(week.activityByDay.find((d) => dayKey(d.start, zone) === c.day)?.requests).toBe(inside.length);
    }
    // Each hour by its first instant: the two 01:00 hours of the day the clocks go back are an hour apart.
    const autumn = (await usageTab(sources, account, presetView("1d", Date.parse("2026-11-02T04:30:00Z"), zone), Date.parse("2026-11-02T04:30:00Z"))).series
      .slice(0, 4)
      .map((s) => s.start);
    expect(autumn.map((start) => new Date(start).toISOString())).toEqual([
      "2026-11-01T04:00:00.000Z",
      "2026-11-01T05:00:00.000Z",
      "2026-11-01T06:00:00.000Z",
      "2026-11-01T07:00:00.000Z",
    ]);
    expect(autumn.map(formatsFor("en-US", zone).hour)).toEqual(["00:00", "01:00", "01:00", "02:00"]);
  });
});

describe("a change of zone", () => {
  it("moves a device's and a conversation's month with it, from the raw reports, and leaves the UTC rollup's days alone", async () => {
    const userId = crypto.randomUUID();
    const now = Date.parse("2026-11-05T12:00:00Z");
    // 20:00 UTC on 31 October is 01:45 on 1 November in Kathmandu.
    const late = { ...usageAt(Date.parse("2026-10-31T20:00:00Z"), 50_000), deviceId: "device-1", conversationId: "c-1" };
    const first = await ledger(userId).ingest({ usage: [late], secure: [], budget: null, now, zone: UTC });
    const months = async (zone: string) => {
      const read = async (month: string) => ledger(userId).read({ now, zone, devicesIn: month, conversationsIn: month });
      const [october, november] = await Promise.all([read("2026-10"), read("2026-11")]);
      return { october: [october.devices, october.conversations], november: [november.devices, november.conversations] };
    };
    const device = [{ deviceId: "device-1", requests: 1, costMicros: 50_000 }];
    expect(await months(UTC)).toEqual({ october: [device, 1], november: [[], 0] });
    // The page's read carries the new zone: the ledger redraws before it answers.
    expect(await months("Asia/Kathmandu")).toEqual({ october: [[], 0], november: [device, 1] });
    expect(await ledger(userId).setZone("Asia/Kathmandu", now)).toBe(false);
    expect(await months(UTC)).toEqual({ october: [device, 1], november: [[], 0] });
    // The rollup's days are UTC days whatever the zone: an ingest in another zone sends the same.
    const again = await ledger(userId).ingest({ usage: [late], secure: [], budget: null, now, zone: "Asia/Kathmandu" });
    expect(again.duplicates).toBe(1);
    expect(again.days).toEqual(first.days);
    expect(first.days).toEqual([{ date: "2026-10-31", requests: 1, tokens: late.tokensUsed, costMicros: 50_000 }]);
  });
});

let messages = 0;
function spendBatch(userId: string, costUsd: number) {
  const now = Date.now();
  return createMessageBatch("modelify-events", [
    {
      id: `zone-budget-${messages++}`,
      timestamp: new Date(now),
      attempts: 1,
      body: { type: "usage.report", userId, receivedAt: now, report: { ...report({ cost_usd: costUsd }), occurred_at: now } } as unknown,
    },
  ]);
}

describe("a daily budget in Australia/Sydney", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("starts again at the account's midnight, and its alert mail names the local time", async () => {
    const email = uniqueEmail("sydney");
    const user = await insertUser({ email, passwordHash: "x", metadata: {}, confirmed: true });
    await db.insert(schema.userProfiles).values({
      id: crypto.randomUUID(),
      userId: user.id,
      email,
      timezone: "Australia/Sydney",
      createdAt: Date.now(),
      updatedAt: Date.now(),
    });
    expect((await db.query.userProfiles.findFirst({ where: eq(schema.userProfiles.userId, user.id) }))?.timezone).toBe("Australia/Sydney");
    await saveBudget(db, user.id, { monthlyBudget: 1000, dailyBudget: 1, alertThresholds: [80], notificationsEnabled: true });
    const { queue, mails } = recordingQueue();
    const deps = { db, env: parseConsumerEnv(env), queue, ledgers: env.USAGE_LEDGER };
    // The consumer's clock, controlled: only Date, so the queue and the runtime keep their timers.
    vi.useFakeTimers({ toFake: ["Date"] });

    // 23:40 on 29 November in Sydney (+11): 12:40 UTC.
    vi.setSystemTime(new Date("2026-11-29T12:40:00Z"));
    await handleEventBatch(deps, spendBatch(user.id, 0.9));
    expect(mails.map((m) => m.subject)).toEqual(["Modelify budget alert: 90% of your daily budget used"]);
    expect(mails[0]!.text).toContain("Reached at 23:40 on 29 Nov 2026 (Australia/Sydney).");
    expect(mails[0]!.text).toContain("Your daily budget starts again at midnight, Australia/Sydney time.");

    // 23:55: the same local day, already alerted.
    vi.setSystemTime(new Date("2026-11-29T12:55:00Z"));
    await handleEventBatch(deps, spendBatch(user.id, 0.05));
    expect(mails).toHaveLength(1);

    // 00:05 on 30 November in Sydney, still 29 November in UTC: a new day, its spend from zero.
    vi.setSystemTime(new Date("2026-11-29T13:05:00Z"));
    const spend = await ledger(user.id).read({ now: Date.now(), spend: true });
    expect(spend.spend?.dayMicros).toBe(0);
    await handleEventBatch(deps, spendBatch(user.id, 0.85));
    expect(mails.map((m) => m.subject)).toEqual([
      "Modelify budget alert: 90% of your daily budget used",
      "Modelify budget alert: 85% of your daily budget used",
    ]);
    expect(mails[1]!.text).toContain("Reached at 00:05 on 30 Nov 2026 (Australia/Sydney).");
    expect((await ledgerSql(user.id, "SELECT kind, period FROM budget_alerts ORDER BY period")).map((r) => `${r.kind}:${r.period}`)).toEqual([
      "daily:2026-11-29",
      "daily:2026-11-30",
    ]);
  });
});
