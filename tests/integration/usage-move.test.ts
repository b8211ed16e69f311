// The move of today's D1 usage into the ledgers (issue 27, "Moving today's data"; ADR 0020): a
// database of the pre-0014 schema, filled exactly as the golden figures' inputs say
// (tests/fixtures/legacy-dashboard-figures.json), goes through POST /api/ops/usage/move until
// nothing remains, and every dashboard page then shows the figures the D1-era code showed.
import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { listActiveSessions } from "~/lib/auth/sessions-list.server";
import { schema } from "~/lib/db.server";
import { modelAnalytics, overviewUsage, usageCsv } from "~/lib/usage/analytics.server";
import { presetView } from "~/lib/usage/usage-range";
import { usageTab } from "~/lib/usage/usage-tab.server";
import { dayKey, monthKey } from "~/lib/usage/dates";
import { UTC } from "~/lib/time-zone";
import { MOVE, toLedgerUsage } from "~/lib/usage/move.server";
import { parseAppEnv } from "~/server/env.server";
import { opsRefusal } from "~/server/ops-auth.server";
import golden from "../fixtures/legacy-dashboard-figures.json";
import { generateUsage, LEGACY_USAGE_TABLES, legacySecureStatements, legacyUsageStatements } from "../fixtures/legacy-usage";
import legacySchemaSql from "../fixtures/legacy-usage-schema.sql?raw";
import { db } from "./helpers";
import { ledger } from "./usage-helpers";

/**
 * Page figures as the D1-era code had them: without what pages have said since, once checked (a
 * budget's isDefault: this account saved its budget, so it is never the default).
 */
function d1Era<T>(figures: T): T {
  return JSON.parse(
    JSON.stringify(figures, (key, value: unknown) => {
      if (key === "isDefault") expect(value).toBe(false);
      else if (key === "timeZone") expect(value).toBe(UTC);
      else return value;
      return undefined;
    }),
  ) as T;
}

const utcIso = (ms: number) => new Date(ms).toISOString();
type Instants = { start: number; end?: number };

/**
 * Chart points and weeks as the D1-era code labelled them (UTC days "MM-DD", hours "HH:00"), from
 * the first instants pages get now (issue 48: the page writes them in its locale and zone).
 */
function d1EraLabels(figures: ReturnType<typeof pageFigures> extends Promise<infer F> ? F : never) {
  const day = ({ start, ...point }: Instants) => ({ label: utcIso(start).slice(5, 10), ...point });
  const hour = ({ start, ...point }: Instants) => ({ label: utcIso(start).slice(11, 16), ...point });
  const tabs = Object.fromEntries(
    Object.entries(figures.usageTab).map(([range, tab]) => [
      range,
      { ...tab, series: tab.series.map(range === "1d" ? hour : day), activityByDay: tab.activityByDay.map(day) },
    ]),
  );
  const weekly = figures.overviewUsage.weekly.map(({ start, end, ...week }) => ({
    label: `${utcIso(start).slice(5, 10)} – ${utcIso(end).slice(5, 10)}`,
    ...week,
  }));
  return { overviewUsage: { ...figures.overviewUsage, weekly }, usageTab: tabs };
}

/** The usage export as the D1-era code wrote it: before its header named the zone its days are in (UTC). */
function d1EraCsv(csv: string): string {
  expect(csv).toContain('"Date (UTC)",');
  expect(csv).toContain('\r\n"Time Zone","UTC"\r\n');
  return csv.replace('"Date (UTC)",', '"Date",').replace('\r\n"Time Zone","UTC"\r\n', "\r\n");
}

const OPS_TOKEN = "ops-token-for-tests-0123456789abcdef"; // vitest.config.ts
const NOW = golden.inputs.now;
const USER_ID = golden.inputs.user.id;
const EMAIL = golden.inputs.user.email;
const DEVICE_SESSION_ID = "golden-device-0001";
const WEB_SESSION_ID = "golden-web-0001";
const BUDGET = golden.inputs.budget;
const CREATED_AT = NOW - 90 * 86_400_000;
const EXPIRES_AT = Date.UTC(2099, 0, 1);
// A second account with what the golden one lacks: fallback reports and an alert already sent.
const OTHER_ID = "move-other-0001";

const sources = { db, ledgers: env.USAGE_LEDGER };
// The CREATE statements of the legacy usage tables and their indexes (comment lines dropped).
const LEGACY_USAGE_SCHEMA = legacySchemaSql
  .split(/;\n/)
  .map((s) =>
    s
      .split("\n")
      .filter((line) => !line.startsWith("--"))
      .join("\n")
      .trim(),
  )
  .filter(Boolean);
const d1 = env.DB;

function move(token: string | null = OPS_TOKEN, method = "POST") {
  return SELF.fetch("http://localhost/api/ops/usage/move", { method, headers: token ? { Authorization: `Bearer ${token}` } : {} });
}

async function moveAll() {
  const steps: Array<{ moved: number; remaining: number }> = [];
  for (;;) {
    const response = await move();
    expect(response.status).toBe(200);
    const step = await response.json<{ moved: number; remaining: number }>();
    steps.push(step);
    if (step.remaining === 0) return steps;
    if (steps.length > 20) throw new Error(`the move does not end: ${JSON.stringify(steps)}`);
  }
}

async function existingTables(): Promise<string[]> {
  const { results } = await d1
    .prepare(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (${LEGACY_USAGE_TABLES.map(() => "?").join(", ")}, '_legacy_usage_guard') ORDER BY name`,
    )
    .bind(...LEGACY_USAGE_TABLES)
    .all<{ name: string }>();
  return results.map((r) => r.name);
}

/** The usage tables as migrations 0000-0013 left them (0014 has dropped them in the test database). */
async function recreateLegacyTables() {
  await d1.batch([...LEGACY_USAGE_TABLES.map((t) => d1.prepare(`DROP TABLE IF EXISTS ${t}`)), ...LEGACY_USAGE_SCHEMA.map((s) => d1.prepare(s))]);
}

async function count(table: string, userId?: string) {
  const row = await (userId
    ? d1.prepare(`SELECT count(*) AS n FROM ${table} WHERE user_id = ?1`).bind(userId)
    : d1.prepare(`SELECT count(*) AS n FROM ${table}`)
  ).first<{
    n: number;
  }>();
  return row!.n;
}

/** The golden account, its sessions, budget and usage, exactly as the golden capture built them. */
async function fillGolden() {
  await d1.batch([
    d1
      .prepare(
        "INSERT INTO users (id, email, password_hash, email_confirmed_at, role, metadata, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, 'user', ?5, ?4, ?4)",
      )
      .bind(USER_ID, EMAIL, "pbkdf2_sha256$100000$golden$golden", CREATED_AT, JSON.stringify({ first_name: "Golden", last_name: "User", initial: "G" })),
    d1
      .prepare(
        `INSERT INTO sessions (id, user_id, client, refresh_token_hash, expires_at, user_agent, last_seen_at, device_name, device_platform,
           app_version, app_instance_id, last_used_at, last_country, created_at)
         VALUES (?1, ?2, 'desktop', 'golden-refresh-device', ?3, 'Modelify/1.0.5', ?4, 'Golden Desktop', 'linux', '1.0.5', 'seed', ?4, 'DE', ?5)`,
      )
      .bind(DEVICE_SESSION_ID, USER_ID, EXPIRES_AT, NOW - 3_600_000, CREATED_AT),
    d1
      .prepare(
        `INSERT INTO sessions (id, user_id, client, refresh_token_hash, expires_at, user_agent, last_seen_at, created_at)
         VALUES (?1, ?2, 'web', 'golden-refresh-web', ?3, 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36', ?4, ?5)`,
      )
      .bind(WEB_SESSION_ID, USER_ID, EXPIRES_AT, NOW - 7_200_000, CREATED_AT),
    d1
      .prepare(
        "INSERT INTO budgets (user_id, monthly_budget, daily_budget, alert_threshold, notifications_enabled, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
      )
      .bind(USER_ID, BUDGET.monthlyBudget, BUDGET.dailyBudget, BUDGET.alertThreshold, BUDGET.notificationsEnabled ? 1 : 0, NOW),
  ]);
  const g = golden.inputs.generator;
  const rows = generateUsage({ userId: USER_ID, days: g.days, count: g.count, now: NOW, seed: g.seed });
  // The frozen generator gives the golden input: the same raw totals the capture counted.
  const { with_device: _withDevice, ...rawTotals } = golden.setup.rawTotals;
  expect({
    requests: rows.length,
    successes: rows.reduce((n, r) => n + r.success, 0),
    tokens: rows.reduce((n, r) => n + r.tokens_used, 0),
    cost_micros: rows.reduce((n, r) => n + r.cost_micros, 0),
    first_at: Math.min(...rows.map((r) => r.occurred_at)),
    last_at: Math.max(...rows.map((r) => r.occurred_at)),
  }).toEqual(rawTotals);
  await d1.batch(legacyUsageStatements(rows, g.batchId).map((s) => d1.prepare(s)));
  // The device-id rule of the inputs: rows whose id starts with 0..7 came from the desktop key.
  const devices = await d1
    .prepare("UPDATE model_usage SET device_id = ?1 WHERE user_id = ?2 AND substr(id, 1, 1) BETWEEN '0' AND '7'")
    .bind(DEVICE_SESSION_ID, USER_ID)
    .run();
  expect(devices.meta.changes).toBe(golden.setup.deviceRowsUpdated);
}

/** The other account: 3 reports, 2 fallback reports and this month's monthly alert, already sent. */
async function fillOther(now: number) {
  await d1
    .prepare(
      "INSERT INTO users (id, email, password_hash, email_confirmed_at, role, metadata, created_at, updated_at) VALUES (?1, ?2, 'x', ?3, 'user', '{}', ?3, ?3)",
    )
    .bind(OTHER_ID, "move-other@example.com", now - 30 * 86_400_000)
    .run();
  const usage = generateUsage({ userId: OTHER_ID, days: 2, count: 3, now, seed: 11 });
  const secure = [1, 2].map((i) => ({
    id: `secure-${i}`,
    user_id: OTHER_ID,
    report_hash: `hash-${i}`.padEnd(64, "0"),
    model_name: "gpt-4o",
    provider: "openai",
    tokens_used: 1000 * i,
    cost_micros: 50_000 * i,
    request_count: 10 * i,
    success_count: 9 * i,
    error_count: i,
    report_timestamp: now - i * 3_600_000,
    app_version: "1.0.5",
    app_instance_id: "fallback",
    created_at: now - i * 3_600_000 + 500,
  }));
  await d1.batch(
    [
      ...legacyUsageStatements(usage, "other"),
      ...legacySecureStatements(secure, "other-secure"),
      "INSERT INTO budget_alerts (user_id, kind, period, sent_at) VALUES ('move-other-0001', 'monthly', strftime('%Y-%m', 'now'), 1)",
    ].map((s) => d1.prepare(s)),
  );
  return { usage: usage.length, secure: secure.length };
}

/** The D1-era aggregates of an account, as the ledger's read names them. */
async function legacyAggregates(userId: string) {
  const daily = (
    await d1
      .prepare("SELECT * FROM daily_usage_summary WHERE user_id = ?1 ORDER BY date, model_name, model_provider")
      .bind(userId)
      .all<Record<string, number | string>>()
  ).results.map((r) => ({
    date: r.date,
    modelName: r.model_name,
    modelProvider: r.model_provider,
    totalRequests: r.total_requests,
    successCount: r.success_count,
    totalTokens: r.total_tokens,
    tokensInput: r.tokens_input,
    tokensOutput: r.tokens_output,
    totalCostMicros: r.total_cost_micros,
    totalDurationMs: r.total_duration_ms,
    timedRequests: r.timed_requests,
    lastUsedAt: r.last_used_at,
  }));
  const hourly = (
    await d1
      .prepare("SELECT date, hour, total_requests, total_tokens, total_cost_micros FROM hourly_usage WHERE user_id = ?1 ORDER BY date, hour")
      .bind(userId)
      .all<Record<string, number | string>>()
  ).results.map((r) => ({ date: r.date, hour: r.hour, totalRequests: r.total_requests, totalTokens: r.total_tokens, totalCostMicros: r.total_cost_micros }));
  const conversations = (
    await d1
      .prepare("SELECT month, count(*) AS n FROM conversations WHERE user_id = ?1 GROUP BY month ORDER BY month")
      .bind(userId)
      .all<{ month: string; n: number }>()
  ).results;
  return { daily, hourly, conversations };
}

async function ledgerAggregates(userId: string, months: string[]) {
  const read = await ledger(userId).read({ now: NOW, dailyFrom: "0000-00-00", hourlyFrom: "0000-00-00" });
  const conversations = [];
  for (const month of months) conversations.push({ month, n: (await ledger(userId).read({ now: NOW, conversationsIn: month })).conversations });
  // The D1-era hours were UTC hours, keyed by day and hour: the ledger's also say where they start.
  const hourly = read.hourly?.map(({ start, ...h }) => {
    expect(start).toBe(Date.parse(`${h.date}T${String(h.hour).padStart(2, "0")}:00:00Z`));
    return h;
  });
  return { daily: read.daily, hourly, conversations };
}

/** The golden account, in UTC: the D1-era pages counted UTC days. */
const ACCOUNT = { id: USER_ID, profile: { timeZone: UTC } };

/** Every figure the golden file holds, as today's pages compute them at the golden NOW. */
async function pageFigures() {
  const tabs: Record<string, Omit<Awaited<ReturnType<typeof usageTab>>, "counts">> = {};
  const counts: Record<string, unknown> = {};
  for (const range of ["1d", "7d", "30d"] as const) {
    const { counts: c, ...tab } = await usageTab(sources, ACCOUNT, presetView(range, NOW, UTC), NOW);
    tabs[range] = tab;
    counts[range] = c;
  }
  const { spend, counts: entitlementCounts } = await ledger(USER_ID).read({ now: NOW, spend: true, counts: true });
  const sessions = await listActiveSessions(sources, ACCOUNT, null, NOW);
  return {
    overviewUsage: await overviewUsage(sources, ACCOUNT, NOW),
    usageTab: tabs,
    tabCounts: counts,
    modelAnalytics: (await modelAnalytics(sources, ACCOUNT, presetView("30d", NOW, UTC), NOW)).models,
    usageCsv: await usageCsv(sources, { ...ACCOUNT, email: EMAIL }, NOW),
    budgetSpend: { monthFrom: `${monthKey(NOW, UTC)}-01`, dayFrom: dayKey(NOW, UTC), monthMicros: spend!.monthMicros, todayMicros: spend!.dayMicros },
    entitlementCounts: entitlementCounts!,
    sessions,
    deviceMonthUsage: sessions.map((s) => ({
      id: s.id,
      client: s.client,
      monthRequests: s.key?.monthRequests ?? null,
      monthCostUsd: s.key?.monthCostUsd ?? null,
    })),
  };
}

describe("the ops route", () => {
  it("answers 401 without the token or with another, 405 to a GET, and 404 where no token is configured", async () => {
    expect((await move(null)).status).toBe(401);
    const wrong = await move("ops-token-for-tests-0123456789abcdeX");
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("WWW-Authenticate")).toContain("Bearer");
    expect((await move(OPS_TOKEN, "GET")).status).toBe(405);

    const request = (token: string) => new Request("http://localhost/", { headers: { Authorization: `Bearer ${token}` } });
    const current = "c".repeat(40);
    const previous = "p".repeat(40);
    expect((await opsRefusal(request(current), { OPS_TOKEN: undefined, OPS_TOKEN_PREVIOUS: undefined }))?.status).toBe(404);
    expect(await opsRefusal(request(current), { OPS_TOKEN: current, OPS_TOKEN_PREVIOUS: undefined })).toBeNull();
    // While a new token is rolled out, the previous one still works; then only the new one.
    expect(await opsRefusal(request(previous), { OPS_TOKEN: current, OPS_TOKEN_PREVIOUS: previous })).toBeNull();
    expect(await opsRefusal(request(current), { OPS_TOKEN: current, OPS_TOKEN_PREVIOUS: previous })).toBeNull();
    expect((await opsRefusal(request(previous), { OPS_TOKEN: current, OPS_TOKEN_PREVIOUS: undefined }))?.status).toBe(401);
    expect((await opsRefusal(request(""), { OPS_TOKEN: current, OPS_TOKEN_PREVIOUS: undefined }))?.status).toBe(401);

    const base = {
      APP_ENV: "test",
      JWT_SECRET: "a-test-secret-that-is-long-enough-0123456789",
      DOWNLOAD_LINK_SECRET: "a-download-link-secret-long-enough-0123456789",
      PHONE_CODE_SECRET: "a-phone-code-secret-long-enough-0123456789",
      TWO_FACTOR_KEY: "a-two-factor-key-long-enough-0123456789",
    };
    expect(() => parseAppEnv({ ...base, OPS_TOKEN: "short" } as unknown as Env)).toThrow(/OPS_TOKEN/);
    expect(() => parseAppEnv({ ...base, OPS_TOKEN_PREVIOUS: previous } as unknown as Env)).toThrow(/OPS_TOKEN_PREVIOUS/);
    expect(parseAppEnv({ ...base, OPS_TOKEN: "" } as unknown as Env).OPS_TOKEN).toBeUndefined();
  });
});

describe("moving D1's usage into the ledgers", () => {
  it("does nothing on a database without the old usage tables", async () => {
    expect(await existingTables()).toEqual([]);
    const response = await move();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ moved: 0, remaining: 0 });
  });

  it("moves today's schema and the golden data to ledgers whose pages show the D1-era figures, and a second run changes nothing", async () => {
    await recreateLegacyTables();
    await fillGolden();
    const other = await fillOther(Date.now());
    // The D1-era tables hold what the golden capture counted.
    for (const [table, n] of Object.entries(golden.setup.tableCounts)) expect(await count(table, USER_ID), table).toBe(n);
    const months = (await legacyAggregates(USER_ID)).conversations.map((c) => c.month);
    const before = await legacyAggregates(USER_ID);

    // An earlier step that died after its ledger call and before its delete: the next steps move
    // those rows again, and the ledger stores each once.
    const { results: early } = await d1
      .prepare("SELECT * FROM model_usage WHERE user_id = ?1 ORDER BY id LIMIT 500")
      .bind(USER_ID)
      .all<Record<string, unknown>>();
    await ledger(USER_ID).ingest({ usage: early.map(toLedgerUsage), secure: [], budget: null, now: Date.now(), importing: true });

    const steps = await moveAll();
    const total = golden.setup.generatedRows + other.usage + other.secure + 1;
    expect(steps.reduce((s, x) => s + x.moved, 0)).toBe(total);
    expect(steps.length).toBeGreaterThanOrEqual(Math.ceil(total / MOVE.rowsPerCall));
    for (const step of steps) expect(step.moved).toBeLessThanOrEqual(MOVE.rowsPerCall);
    expect(steps.at(-1)).toEqual({ moved: expect.any(Number), remaining: 0 });

    // D1's raw tables are empty; every row is in its account's ledger.
    for (const table of ["model_usage", "secure_usage_reports", "budget_alerts"]) expect(await count(table), table).toBe(0);
    expect(await ledger(USER_ID).size()).toMatchObject({ reports: golden.setup.generatedRows, secure: 0 });
    expect(await ledger(OTHER_ID).size()).toMatchObject({ reports: other.usage, secure: other.secure });

    // The dropped aggregates are what the ledger recomputed from the raw rows, row for row.
    expect(await ledgerAggregates(USER_ID, months)).toEqual(before);

    // Page by page, the golden figures (entitlements' minute aside: see below).
    const figures = await pageFigures();
    const labelled = d1EraLabels(figures);
    // Issue 49 made the prediction a forecast from the days so far (lib/usage/forecast.ts): its
    // trend and budget are the golden ones; the usage tab's range and groups are new.
    const { prediction, ...overview } = d1Era(labelled.overviewUsage);
    const { prediction: goldenPrediction, ...goldenOverview } = golden.overviewUsage;
    expect(overview).toEqual(goldenOverview);
    expect(prediction).toMatchObject({ trend: goldenPrediction.trend, budget: goldenPrediction.budget });
    const tabs = Object.fromEntries(Object.entries(d1Era(labelled.usageTab)).map(([range, { view: _view, groups, ...tab }]) => [range, tab]));
    expect(tabs).toEqual(golden.usageTab);
    for (const tab of Object.values(labelled.usageTab)) expect(tab.groups.reduce((s, g) => s + g.requests, 0)).toBe(tab.totals.requests);
    expect(figures.modelAnalytics).toEqual(golden.modelAnalytics);
    expect(d1EraCsv(figures.usageCsv)).toBe(golden.usageCsv);
    expect(figures.budgetSpend).toEqual(golden.budgetSpend);
    const { minute, subscription: _subscription, ...windows } = golden.entitlementFacts;
    expect(figures.entitlementCounts).toMatchObject(windows);
    for (const range of ["1d", "7d", "30d"]) expect(figures.tabCounts[range]).toEqual(figures.entitlementCounts);
    // The golden minute is 0 because the D1-era code kept only minutes of the real clock's last
    // two hours; the move's ledger keeps the same window (ENTITLEMENTS.minuteRowsKeptMs) and NOW
    // is days before the move, so its minute is 0 as well.
    expect(figures.entitlementCounts.minute).toBe(minute);
    expect(figures.sessions).toEqual(golden.sessions);
    expect(figures.deviceMonthUsage).toEqual(golden.deviceMonthUsage);
    expect(figures.deviceMonthUsage[0]).toMatchObject({
      monthRequests: golden.deviceMonthRaw[0]!.month_requests,
      monthCostUsd: golden.deviceMonthRaw[0]!.month_cost_micros / 1e6,
    });

    // The cross-account rollup has the account's whole history, and when it first and last reported.
    const rollup = await db.select().from(schema.usageRollup).where(eq(schema.usageRollup.userId, USER_ID));
    const raw = golden.setup.rawTotals;
    expect(rollup.reduce((s, r) => s + r.requests, 0)).toBe(raw.requests);
    expect(rollup.reduce((s, r) => s + r.tokens, 0)).toBe(raw.tokens);
    expect(rollup.reduce((s, r) => s + r.costMicros, 0)).toBe(raw.cost_micros);
    const account = await db.query.usageAccounts.findFirst({ where: eq(schema.usageAccounts.userId, USER_ID) });
    // The generator receives each report 200 ms after it occurred.
    expect(account).toMatchObject({ firstReportAt: raw.first_at + 200, lastReportAt: raw.last_at + 200 });

    // Again: nothing to move, nothing changes.
    const sizes = [await ledger(USER_ID).size(), await ledger(OTHER_ID).size()];
    const again = await move();
    expect(await again.json()).toEqual({ moved: 0, remaining: 0 });
    expect([await ledger(USER_ID).size(), await ledger(OTHER_ID).size()]).toEqual(sizes);
    expect(await pageFigures()).toEqual(figures);
    expect(await db.select().from(schema.usageRollup).where(eq(schema.usageRollup.userId, USER_ID))).toEqual(rollup);
  }, 120_000);

  it("carries the alerts already sent over, so a period's alert is not sent twice", async () => {
    const now = Date.now();
    const spender = toLedgerUsage({ ...generateUsage({ userId: OTHER_ID, days: 0.01, count: 1, now, seed: 3 })[0], cost_micros: 5_000_000 });
    const result = await ledger(OTHER_ID).ingest({
      usage: [spender],
      secure: [],
      budget: { monthlyBudget: 1, dailyBudget: 1, alertThresholds: [80], notificationsEnabled: true },
      now,
    });
    expect(result.stored).toBe(1);
    // This month's monthly alert was sent by the D1-era code (moved from budget_alerts); today's
    // daily one was not.
    expect(result.alerts.map((a) => `${a.kind} ${a.period}`)).toEqual([`daily ${dayKey(now, UTC)}`]);
  });

  it("migration 0014 refuses while old usage rows remain, dropping nothing, and drops the tables once they are empty", async () => {
    const migrations = (env as unknown as { TEST_MIGRATIONS: Array<{ name: string; queries: string[] }> }).TEST_MIGRATIONS;
    const drop = migrations.find((m) => m.name.startsWith("0014_"))!;
    expect(drop.name).toBe("0014_drop_legacy_usage.sql");
    await recreateLegacyTables();
    await d1
      .prepare(
        "INSERT INTO secure_usage_reports (id, user_id, report_hash, model_name, provider, tokens_used, cost_micros, request_count, success_count, error_count, report_timestamp) VALUES ('s', ?1, 'h', 'm', 'p', 1, 1, 1, 1, 0, 1)",
      )
      .bind(USER_ID)
      .run();
    // As wrangler and the test setup apply a migration: its statements in one batch (one transaction).
    await expect(d1.batch(drop.queries.map((q) => d1.prepare(q)))).rejects.toThrow(/CHECK constraint failed/);
    expect(await existingTables()).toEqual([...LEGACY_USAGE_TABLES].sort());
    expect(await count("secure_usage_reports")).toBe(1);

    // The move takes the row; then the migration goes through.
    expect(await moveAll()).toEqual([{ moved: 1, remaining: 0 }]);
    await d1.batch(drop.queries.map((q) => d1.prepare(q)));
    expect(await existingTables()).toEqual([]);
    expect(await move().then((r) => r.json())).toEqual({ moved: 0, remaining: 0 });
  });
});
