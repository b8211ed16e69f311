// Any range, any slice (issue 49), through the real Worker, queue, consumer and ledger: an account
// in Asia/Kathmandu (+5:45) reports over three models, two providers, two devices, two request
// types and five failures. Each grouping's rows add up to the page's totals and to the request
// log's rows for the same filter; a custom range holds exactly its local days; a range outside
// what is kept, backwards or malformed is a 400 that says why; each tidy CSV is one table whose
// rows add up to the page's totals, formula-safe, and only ever the account's own.
import { env, SELF } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { USAGE } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { addDays, dayKey } from "~/lib/usage/dates";
import type { LedgerUsage, LogCursor, UsageFilter } from "~/lib/usage/ledger/types";
import { modelAnalytics } from "~/lib/usage/analytics.server";
import { GROUPS, type UsageGroup } from "~/lib/usage/usage-range";
import { parseUsageView } from "~/lib/usage/usage-range.server";
import { usageTab } from "~/lib/usage/usage-tab.server";
import { resolveWebAuth } from "~/server/auth.server";
import type { AppContext } from "~/server/context.server";
import { type Browser, db, keySettings, profileFormFields, queueSettled, STRONG_PASSWORD, uniqueIp } from "./helpers";
import { apiUser, ledger, postUsage, report, waitForRows } from "./usage-helpers";

const ZONE = "Asia/Kathmandu";
const sources = { db, ledgers: env.USAGE_LEDGER };
const MODELS = [
  { model_name: "gpt-4o", model_provider: "openai", cost_usd: 0.012345 },
  { model_name: "gpt-4o-mini", model_provider: "openai", cost_usd: 0.000789 },
  { model_name: "claude-sonnet-4", model_provider: "anthropic", cost_usd: 0.031 },
];

async function token(email: string) {
  const response = await SELF.fetch("http://localhost/api/v1/auth/token", {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": uniqueIp() },
    body: JSON.stringify({ email, password: STRONG_PASSWORD }),
  });
  return (await response.json<{ access_token: string }>()).access_token;
}

/** The signed-in user as a page's loader has it (zone and creation time included). */
async function pageUser(browser: Browser) {
  const app = { db, env: keySettings, ctx: { waitUntil: () => {} } } as unknown as AppContext;
  const request = new Request("http://localhost/dashboard/usage", { headers: { Cookie: browser.cookieHeader() } });
  return (await resolveWebAuth(request, app)).auth.user!;
}

/** 60 reports over the last three local days, from two named devices; five of them failed. */
async function reportingAccount() {
  const user = await apiUser();
  const saved = await user.browser.post("/dashboard/profile?edit=1", profileFormFields(user.email, { timezone: ZONE }));
  expect(saved.status).toBeLessThan(400);
  const second = await token(user.email);
  const devices = await db
    .select({ id: schema.sessions.id })
    .from(schema.sessions)
    .where(and(eq(schema.sessions.userId, user.userId), eq(schema.sessions.client, "desktop")));
  expect(devices).toHaveLength(2);
  for (const [i, d] of devices.entries())
    await db
      .update(schema.sessions)
      .set({ deviceName: `Laptop ${i + 1}` })
      .where(eq(schema.sessions.id, d.id));
  const now = Date.now();
  const sent = Array.from({ length: 60 }, (_, i) =>
    report({
      ...MODELS[i % 3],
      request_type: i % 2 ? "chat" : "completion",
      tokens_used: 100 + i,
      tokens_input: 60 + i,
      tokens_output: 40,
      success: i % 12 !== 5,
      occurred_at: new Date(now - (i % 3) * 86_400_000 - i * 60_000).toISOString(),
    }),
  );
  for (const [i, t] of [user.token, second].entries()) {
    expect((await postUsage(t, { reports: sent.filter((_, j) => j % 2 === i) })).status).toBe(202);
  }
  await waitForRows(user.userId, sent.length);
  await queueSettled();
  return { ...user, sent, account: await pageUser(user.browser) };
}

/** Every row of the request log for a filter, page by page (its cursor), summed. */
async function logSums(userId: string, fromMs: number, toMs: number, filter: UsageFilter) {
  let after: LogCursor | undefined;
  const t = { rows: 0, requests: 0, tokens: 0, costMicros: 0 };
  do {
    const page = (await ledger(userId).read({ now: Date.now(), log: { fromMs, toMs, filter, limit: 7, ...(after ? { after } : {}) } })).log!;
    for (const r of page.rows) {
      t.rows += 1;
      t.requests += r.requests;
      t.tokens += r.tokens;
      t.costMicros += r.costMicros;
    }
    after = page.next ?? undefined;
  } while (after);
  return t;
}

/** RFC 4180: quoted cells may hold commas, quotes ("") and line breaks; every record ends with CRLF. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const two = text.slice(i, i + 2);
    if (quoted && two === '""') {
      cell += '"';
      i += 2;
      continue;
    }
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === ",") {
      row.push(cell);
      cell = "";
    } else if (!quoted && two === "\r\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i += 1;
    } else cell += c;
    i += 1;
  }
  expect(cell, "the file ends with CRLF").toBe("");
  return rows;
}

async function csvTable(browser: Browser, path: string) {
  const response = await browser.get(path);
  expect(response.status, path).toBe(200);
  expect(response.headers.get("Content-Type")).toMatch(/^text\/csv/);
  expect(response.headers.get("Cache-Control")).toBe("private, no-store");
  const [header, ...rows] = parseCsv(await response.text());
  const col = (name: string) => header!.indexOf(name);
  const sum = (name: string) => rows.reduce((s, r) => s + Number(r[col(name)]), 0);
  return { header: header!, rows, col, sum };
}

describe("any range, any slice", () => {
  it("adds each grouping's rows up to the totals, and each group to the request log's rows for it", async () => {
    const { userId, sent, account, browser } = await reportingAccount();
    const now = Date.now();
    const costMicros = sent.reduce((s, r) => s + Math.round(Number(r.cost_usd) * 1e6), 0);
    const tokens = sent.reduce((s, r) => s + Number(r.tokens_used), 0);
    for (const groupBy of Object.keys(GROUPS) as UsageGroup[]) {
      const asked = parseUsageView(new URLSearchParams({ range: "7d", group_by: groupBy }), { now, zone: ZONE, createdAt: account.createdAt, fallback: "7d" });
      if (!asked.ok) throw new Error(asked.message);
      const tab = await usageTab(sources, account, asked.view, now);
      expect(tab.totals.requests, groupBy).toBe(60);
      expect(tab.totals.tokens).toBe(tokens);
      expect(Math.round(tab.totals.spend * 1e6)).toBe(costMicros);
      expect(tab.groups.reduce((s, g) => s + g.requests, 0)).toBe(tab.totals.requests);
      expect(tab.groups.reduce((s, g) => s + g.tokens, 0)).toBe(tab.totals.tokens);
      expect(tab.groups.reduce((s, g) => s + g.costMicros, 0)).toBe(costMicros);
      expect(tab.groups.reduce((s, g) => s + g.errors, 0)).toBe(5);
      expect(tab.groups).toHaveLength({ model: 3, provider: 2, device: 2, request_type: 2 }[groupBy]);
      // The request log's own spelling of the request type filter.
      if (groupBy === "request_type") expect(tab.groups.map((g) => new URLSearchParams(g.search).get("type")).sort()).toEqual(["chat", "completion"]);
      const fromMs = Date.parse(`${asked.view.from}T00:00:00+05:45`);
      const toMs = Date.parse(`${addDays(asked.view.to, 1)}T00:00:00+05:45`);
      for (const g of tab.groups) {
        // The row's link narrows the log to it: the same filter, the same figures.
        const params = new URLSearchParams(g.search);
        const narrowed = parseUsageView(params, { now, zone: ZONE, createdAt: account.createdAt, fallback: "7d" });
        if (!narrowed.ok) throw new Error(narrowed.message);
        const log = await logSums(userId, fromMs, toMs, narrowed.view.filter);
        expect({ requests: log.rows, tokens: log.tokens, costMicros: log.costMicros }, `${groupBy} ${g.label}`).toEqual({
          requests: g.requests,
          tokens: g.tokens,
          costMicros: g.costMicros,
        });
      }
      const analytics = await modelAnalytics(sources, account, asked.view, now);
      expect(analytics.totals).toMatchObject({ requests: 60, tokens, costMicros });
    }

    // The page: devices by their names, each group linking to the log filtered to it.
    const html = await (await browser.get("/dashboard/usage?range=7d&group_by=device")).text();
    expect(html).toContain("Laptop 1");
    expect(html).toContain("Laptop 2");
    const models = await (await browser.get("/dashboard/usage?range=30d&group_by=model")).text();
    const today = dayKey(now, ZONE);
    expect(models).toContain(`/dashboard/usage/requests?from=${addDays(today, -29)}&amp;to=${today}&amp;model=gpt-4o&amp;provider=openai`);
    expect(models).toMatch(/data-testid="groups-total"/);
  });

  it("holds exactly a custom range's local days in Asia/Kathmandu, and refuses what it cannot show with the reason", async () => {
    const { browser, email, token: t, userId } = await apiUser();
    expect((await browser.post("/dashboard/profile?edit=1", profileFormFields(email, { timezone: ZONE }))).status).toBeLessThan(400);
    const day = addDays(dayKey(Date.now(), ZONE), -3);
    // The local day runs from 18:15 UTC the day before to 18:15 UTC on it.
    const utcBefore = addDays(day, -1);
    const at = [`${utcBefore}T18:14:59Z`, `${utcBefore}T18:15:00Z`, `${day}T18:14:59Z`, `${day}T18:15:00Z`];
    const reports = at.map((occurred_at, i) => report({ occurred_at, cost_usd: 0.001 * 10 ** i, tokens_used: 10 ** i, tokens_input: 0, tokens_output: 0 }));
    expect((await postUsage(t, { reports })).status).toBe(202);
    await waitForRows(userId, 4);
    await queueSettled();
    const account = await pageUser(browser);
    const asked = parseUsageView(new URLSearchParams({ from: day, to: day }), { now: Date.now(), zone: ZONE, createdAt: account.createdAt, fallback: "7d" });
    if (!asked.ok) throw new Error(asked.message);
    const tab = await usageTab(sources, account, asked.view);
    expect(tab.totals).toEqual({ requests: 2, tokens: 110, spend: 0.11 });
    // A single day is drawn hour by hour: 24 of them in Kathmandu, the two reports in its first and last.
    expect(tab.series).toHaveLength(24);
    expect(tab.series[0]!.requests + tab.series[23]!.requests).toBe(2);
    const page = await browser.get(`/dashboard/usage?from=${day}&to=${day}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/data-testid="total-requests">2</);
    const models = await csvTable(browser, `/dashboard/usage/models.csv?from=${day}&to=${day}`);
    expect(models.sum("requests")).toBe(2);
    expect(models.sum("tokens")).toBe(110);

    const today = dayKey(Date.now(), ZONE);
    const refusals: Array<[string, RegExp]> = [
      [`from=${day}&to=${addDays(day, -1)}`, /The end date \(\d{4}-\d{2}-\d{2}\) is before the start date/],
      [`from=${day}&to=${addDays(today, 1)}`, /is after today/],
      ["from=2001-01-01&to=2001-01-31", /Usage is kept from \d{4}-\d{2}-\d{2} to today/],
      [`from=2026-02-30&to=${today}`, /The start date must be a date written YYYY-MM-DD/],
      [`from=yesterday&to=${today}`, /The start date must be a date written YYYY-MM-DD/],
      [`from=${day}`, /needs both a start date and an end date/],
      ["range=7d&group_by=colour", /Group by must be model, provider, device or request_type/],
      ["range=7d&status=maybe", /Status must be success or error/],
      [`range=7d&model=${"m".repeat(201)}`, /The model is at most 200 characters/],
    ];
    for (const [query, message] of refusals) {
      for (const path of ["/dashboard/usage", "/dashboard/usage/requests.csv", "/dashboard/usage/days.csv", "/dashboard/usage/models.csv"]) {
        const response = await browser.get(`${path}?${query}`);
        expect(response.status, `${path}?${query}`).toBe(400);
        expect((await response.text()).replaceAll("&#x27;", "'").replaceAll("&quot;", '"'), `${path}?${query}`).toMatch(message);
      }
    }
  });

  it("exports each tidy CSV as one table whose rows add up to the page's totals, formula-safe", async () => {
    const { browser, sent, account, token: t, userId } = await reportingAccount();
    // A model name a spreadsheet would run as a formula.
    expect((await postUsage(t, { reports: [report({ model_name: '=HYPERLINK("http://x","y")', cost_usd: 0.5 })] })).status).toBe(202);
    await waitForRows(userId, sent.length + 1);
    await queueSettled();
    const now = Date.now();
    const asked = parseUsageView(new URLSearchParams({ range: "7d" }), { now, zone: ZONE, createdAt: account.createdAt, fallback: "7d" });
    if (!asked.ok) throw new Error(asked.message);
    const tab = await usageTab(sources, account, asked.view, now);
    const query = `from=${asked.view.from}&to=${asked.view.to}`;
    const files = {
      requests: await csvTable(browser, `/dashboard/usage/requests.csv?${query}`),
      days: await csvTable(browser, `/dashboard/usage/days.csv?${query}`),
      models: await csvTable(browser, `/dashboard/usage/models.csv?${query}`),
    };
    for (const [name, file] of Object.entries(files)) {
      for (const row of file.rows) expect(row, name).toHaveLength(file.header.length);
      expect(file.sum("requests"), name).toBe(tab.totals.requests);
      expect(file.sum("tokens"), name).toBe(tab.totals.tokens);
      expect(Math.round(file.sum("cost_usd") * 1e6), name).toBe(Math.round(tab.totals.spend * 1e6));
      // Machine-friendly numbers, and the zone named where days and times are.
      for (const row of file.rows) expect(row[file.col("cost_usd")], name).toMatch(/^\d+(\.\d+)?$/);
      expect(
        file.rows.some((r) => r.includes('\'=HYPERLINK("http://x","y")')),
        name,
      ).toBe(true);
      expect(
        file.rows.some((r) => r.some((c) => c.startsWith("="))),
        name,
      ).toBe(false);
    }
    expect(files.requests.header).toContain(`time_local (${ZONE})`);
    expect(files.days.header[0]).toBe(`date_local (${ZONE})`);
    expect(files.models.header.slice(0, 2)).toEqual([`from_local (${ZONE})`, `to_local (${ZONE})`]);
    expect(files.requests.rows).toHaveLength(61);
    expect(new Set(files.requests.rows.map((r) => r[files.requests.col("device_name")]))).toEqual(new Set(["Laptop 1", "Laptop 2"]));
    expect(files.requests.rows.filter((r) => r[files.requests.col("status")] === "error")).toHaveLength(5);
    expect(files.requests.rows[0]![files.requests.col(`time_local (${ZONE})`)]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+05:45$/);
    // Filtered as the log is: one model's requests.
    const mini = await csvTable(browser, `/dashboard/usage/requests.csv?${query}&model=gpt-4o-mini&status=success`);
    expect(mini.rows.every((r) => r[mini.col("model")] === "gpt-4o-mini" && r[mini.col("status")] === "success")).toBe(true);
    expect(mini.rows).toHaveLength(sent.filter((r) => r.model_name === "gpt-4o-mini" && r.success).length);

    // A second account gets its own (empty) usage, whatever it asks for.
    const other = await apiUser();
    const device = files.requests.rows[0]![files.requests.col("device_id")]!;
    for (const file of ["requests", "days", "models"]) {
      const theirs = await csvTable(other.browser, `/dashboard/usage/${file}.csv?range=7d&device=${device}`);
      expect(theirs.rows, file).toEqual([]);
      const anyDevice = await csvTable(other.browser, `/dashboard/usage/${file}.csv?range=7d`);
      expect(anyDevice.rows, file).toEqual([]);
    }
    // Signed out: no file.
    const anonymous = await SELF.fetch(`http://localhost/dashboard/usage/requests.csv?${query}`, { redirect: "manual" });
    expect(anonymous.status).toBe(302);
  });

  it("pages the per-request CSV through the whole log with its cursor, every report once", async () => {
    const { browser, userId } = await apiUser();
    const now = Date.now();
    const count = USAGE.requestsCsvPageRows * 2 + 345;
    // Many reports share an instant, so the pages must break ties by key.
    const usage = Array.from(
      { length: count },
      (_, i): LedgerUsage => ({
        id: crypto.randomUUID(),
        occurredAt: now - Math.floor(i / 4) * 1000,
        receivedAt: now,
        modelName: "gpt-4o",
        modelProvider: "openai",
        requestType: "chat",
        tokensUsed: 10,
        tokensInput: 6,
        tokensOutput: 4,
        costMicros: 7,
        durationMs: 100,
        success: true,
        errorMessage: null,
        metadata: null,
        conversationId: null,
        appVersion: "1.0.5",
        appInstanceId: "i-1",
        deviceId: null,
      }),
    );
    expect((await ledger(userId).ingest({ usage, secure: [], budget: null, now })).stored).toBe(count);
    const file = await csvTable(browser, "/dashboard/usage/requests.csv?range=7d");
    expect(file.rows).toHaveLength(count);
    expect(new Set(file.rows.map((r) => r[0])).size).toBe(count);
    expect(Math.round(file.sum("cost_usd") * 1e6)).toBe(count * 7);
    expect(new Set(file.rows.map((r) => r[file.col("device_name")]))).toEqual(new Set(["No device"]));
  });
});
