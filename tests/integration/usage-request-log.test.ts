// The request log (issue 49) through the real Worker, queue, consumer and ledger: 500 reports over
// three models, two providers, two device keys and five failures, in a quarter-hour zone; for
// every filter the log's rows over all its pages (following the "Next page" links) are exactly the
// reports sent that match, each once, newest first, and the totals above the table are their sums.
// A URL the page cannot read answers 400, another account's report 404, and an archived month's
// reports are reachable with the same filters and pages.
import { env, SELF } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { MS, REQUEST_LOG } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { UTC } from "~/lib/time-zone";
import { addDays, dayKey, dayStart, monthKey, startOfMonth } from "~/lib/usage/dates";
import type { LedgerUsage } from "~/lib/usage/ledger/types";
import { toMicros } from "~/lib/usage/report";
import { encodeCursor } from "~/lib/usage/request-log";
import { parseLogView } from "~/lib/usage/request-log-url.server";
import { requestLog } from "~/lib/usage/request-log.server";
import { type Browser, createConfirmedUser, db, ORIGIN, profileFormFields, visibleText } from "./helpers";
import { apiUser, deviceToken, ledger, oldUsageAt, postUsage, report, waitForRows } from "./usage-helpers";

const PATH = "/dashboard/usage/requests";
const ZONE = "Asia/Kathmandu";
const MODELS = [
  { model_name: "gpt-4o", model_provider: "openai" },
  { model_name: "gpt-4o-mini", model_provider: "openai" },
  { model_name: "claude-sonnet-4", model_provider: "anthropic" },
];
const FAILED = new Set([7, 91, 200, 333, 499]);

type Sent = { id: string; model: string; provider: string; device: string; type: string; success: boolean; at: number; tokens: number; costMicros: number };

/** Every page of a view, by its "Next page" links: each page's report ids, and the first page's HTML. */
async function allPages(browser: Browser, search: string) {
  const pages: string[][] = [];
  let first = "";
  let next: string | null = `${PATH}${search}`;
  while (next) {
    const response = await browser.get(next);
    const html = await response.text();
    expect(response.status, next).toBe(200);
    first ||= html;
    pages.push([...html.matchAll(/data-report="([^"]+)"/g)].map((m) => m[1]!));
    const link = /<a\b[^>]*data-testid="next-page"[^>]*>/.exec(html)?.[0];
    next = link ? /href="([^"]+)"/.exec(link)![1]!.replaceAll("&amp;", "&") : null;
    // A loop that never ends fails here: the test sends at most 510 reports.
    expect(pages.length, "pages").toBeLessThanOrEqual(Math.ceil(510 / REQUEST_LOG.pageSize));
  }
  return { pages, first };
}

/** A figure of the totals above the table, as the page writes it (en-US). */
function figure(html: string, testId: string): number {
  const value = new RegExp(`data-testid="${testId}">([^<]+)<`).exec(html)?.[1];
  return Number(value?.replaceAll(",", ""));
}

describe("the request log, 500 reports", () => {
  const sent: Sent[] = [];
  let browser: Browser;
  let userId: string;
  const devices: Record<"laptop" | "desktop", string> = { laptop: "", desktop: "" };
  const now = Date.now();

  beforeAll(async () => {
    const user = await apiUser();
    ({ browser, userId } = user);
    const saved = await browser.post("/dashboard/profile?edit=1", profileFormFields(user.email, { timezone: ZONE }));
    expect(saved.status).toBeLessThan(400);
    const tokens = { laptop: await deviceToken(browser, "Log laptop"), desktop: await deviceToken(browser, "Log desktop") };
    const sessions = await db
      .select({ id: schema.sessions.id, name: schema.sessions.deviceName })
      .from(schema.sessions)
      .where(and(eq(schema.sessions.userId, userId), eq(schema.sessions.client, "desktop")));
    devices.laptop = sessions.find((s) => s.name === "Log laptop")!.id;
    devices.desktop = sessions.find((s) => s.name === "Log desktop")!.id;
    const batches: Record<"laptop" | "desktop", Array<Record<string, unknown>>> = { laptop: [], desktop: [] };
    for (let i = 0; i < 500; i++) {
      const device = i % 2 ? "desktop" : "laptop";
      const success = !FAILED.has(i);
      // Every 25 minutes back from now: eight and a half days, so ranges and the default week cut through them.
      const at = now - i * 25 * MS.MINUTE;
      const r = report({
        ...MODELS[i % 3],
        request_type: i % 5 === 0 ? "completion" : "chat",
        tokens_input: 100 + i,
        tokens_output: 50 + (i % 7),
        tokens_used: 150 + i + (i % 7),
        cost_usd: ((i % 17) + 1) / 10_000,
        success,
        error_message: success ? null : `Upstream refused call ${i}`,
        occurred_at: at,
      });
      batches[device].push(r);
      sent.push({
        id: r.report_id,
        model: MODELS[i % 3]!.model_name,
        provider: MODELS[i % 3]!.model_provider,
        device: devices[device],
        type: r.request_type,
        success,
        at,
        tokens: r.tokens_used,
        costMicros: toMicros(r.cost_usd),
      });
    }
    for (const device of ["laptop", "desktop"] as const) {
      for (let i = 0; i < batches[device].length; i += 100) {
        expect((await postUsage(tokens[device], { reports: batches[device].slice(i, i + 100) })).status).toBe(202);
      }
    }
    await waitForRows(userId, 500, 30_000);
  });

  const today = () => dayKey(now, ZONE);
  const inDays = (from: string, to: string) => (r: Sent) => r.at >= dayStart(from, ZONE) && r.at < dayStart(addDays(to, 1), ZONE);

  async function expectView(search: string, match: (r: Sent) => boolean) {
    const expected = sent.filter(match).sort((a, b) => b.at - a.at);
    const { pages, first } = await allPages(browser, search);
    const ids = pages.flat();
    expect(new Set(ids).size, `${search}: no row twice`).toBe(ids.length);
    // Newest first, every page full but the last, and exactly the matching reports.
    expect(ids, search).toEqual(expected.map((r) => r.id));
    for (const page of pages.slice(0, -1)) expect(page).toHaveLength(REQUEST_LOG.pageSize);
    expect(figure(first, "log-requests"), search).toBe(expected.length);
    expect(figure(first, "log-errors"), search).toBe(expected.filter((r) => !r.success).length);
    expect(figure(first, "log-tokens"), search).toBe(expected.reduce((s, r) => s + r.tokens, 0));
    // The cost to the micro-dollar (the page rounds it to cents): the loader's own figures.
    const parsed = parseLogView(new URLSearchParams(search), Date.now(), ZONE);
    if (!parsed.ok) throw new Error(parsed.message);
    const data = await requestLog({ db, ledgers: env.USAGE_LEDGER }, { id: userId, profile: { timeZone: ZONE } }, parsed.view);
    expect(Math.round(data.totals!.cost * 1e6), search).toBe(expected.reduce((s, r) => s + r.costMicros, 0));
    expect(data.histogram!.points.reduce((s, p) => s + p.requests, 0)).toBe(expected.length);
  }

  it("shows every report matching each filter once, over all its pages, with totals that are their sums", async () => {
    const all = `?from=${addDays(today(), -9)}&to=${today()}`;
    await expectView(all, () => true);
    await expectView("", inDays(addDays(today(), -(REQUEST_LOG.defaultDays - 1)), today()));
    for (const m of MODELS) await expectView(`${all}&model=${m.model_name}`, (r) => r.model === m.model_name);
    for (const p of ["openai", "anthropic"]) await expectView(`${all}&provider=${p}`, (r) => r.provider === p);
    for (const d of ["laptop", "desktop"] as const) await expectView(`${all}&device=${devices[d]}`, (r) => r.device === devices[d]);
    await expectView(`${all}&device=none`, () => false);
    await expectView(`${all}&status=error`, (r) => !r.success);
    await expectView(`${all}&status=success`, (r) => r.success);
    await expectView(`${all}&type=completion`, (r) => r.type === "completion");
    const [from, to] = [addDays(today(), -5), addDays(today(), -3)];
    await expectView(`?from=${from}&to=${to}`, inDays(from, to));
    await expectView(`?from=${to}&to=${to}`, inDays(to, to));
    await expectView(`${all}&model=gpt-4o&status=error`, (r) => r.model === "gpt-4o" && !r.success);
    await expectView(
      `${all}&provider=openai&device=${devices.laptop}&type=chat`,
      (r) => r.provider === "openai" && r.device === devices.laptop && r.type === "chat",
    );
    await expectView(
      `?from=${from}&to=${to}&device=${devices.desktop}&model=claude-sonnet-4`,
      (r) => inDays(from, to)(r) && r.device === devices.desktop && r.model === "claude-sonnet-4",
    );
    // A form's empty choices ("Any") filter nothing.
    await expectView(`${all}&model=&provider=&device=&status=&type=`, () => true);
  });

  it("names each row's device key, and opens a report's details (escaped) by the URL", async () => {
    const failed = sent.find((r) => !r.success)!;
    const response = await browser.get(`${PATH}?from=${addDays(today(), -9)}&to=${today()}&report=${failed.id}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/<dialog[^>]*aria-labelledby="report-title"/);
    const text = visibleText(html);
    expect(text).toContain(`Upstream refused call ${[...FAILED].find((i) => sent[i]!.id === failed.id)}`);
    expect(text).toContain("Log laptop");
    expect(text).toContain("instance-1");
    expect(text).toContain("1.0.5");
    expect(html).toMatch(/data-testid="report-metadata"[^>]*>\{\n {2}&quot;conversation_id&quot;: &quot;conv-\d&quot;\n\}/);
  });

  it("escapes what an app sent in its metadata and error message", async () => {
    const { browser: owner, token, userId: owned } = await apiUser();
    const r = report({ success: false, error_message: "<img src=x onerror=alert(1)>", metadata: { note: "</pre><script>alert(1)</script>" } });
    expect((await postUsage(token, { reports: [r] })).status).toBe(202);
    await waitForRows(owned, 1);
    const html = await (await owner.get(`${PATH}?report=${r.report_id}`)).text();
    expect(html).not.toContain("<script>alert(1)");
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
  });

  it("lists a fallback report as a row of its own, in the totals, and opens its counts", async () => {
    const { browser: owner, token, userId: owned } = await apiUser();
    const calls = [report({ success: true }), report({ success: false, error_message: "Timed out" })];
    expect((await postUsage(token, { reports: calls })).status).toBe(202);
    const hash = `h${crypto.randomUUID().replaceAll("-", "")}`;
    const secure = await SELF.fetch(`${ORIGIN}/api/v1/usage/secure-report`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        report_hash: hash,
        model_name: "gpt-4o",
        provider: "openai",
        tokens_used: 5000,
        cost: 0.07,
        request_count: 5,
        success_count: 4,
        error_count: 1,
        report_timestamp: Date.now() - MS.HOUR,
      }),
    });
    expect(secure.status).toBe(202);
    await waitForRows(owned, 3);
    const { pages, first } = await allPages(owner, "");
    expect(pages.flat().sort()).toEqual([...calls.map((c) => c.report_id), `fallback:${hash}`].sort());
    expect(figure(first, "log-requests")).toBe(2 + 5);
    expect(figure(first, "log-errors")).toBe(1 + 1);
    expect(figure(first, "log-tokens")).toBe(calls.reduce((sum, c) => sum + c.tokens_used, 0) + 5000);
    expect((await allPages(owner, "?type=fallback")).pages.flat()).toEqual([`fallback:${hash}`]);
    expect((await allPages(owner, "?status=error")).pages.flat().sort()).toEqual([calls[1]!.report_id, `fallback:${hash}`].sort());
    const detail = visibleText(await (await owner.get(`${PATH}?report=fallback:${hash}`)).text());
    expect(detail).toContain("5 (4 succeeded, 1 failed)");
  });

  it("answers 404 for another account's report, and 400 with the page's message for a URL it cannot read", async () => {
    const other = await createConfirmedUser();
    const notTheirs = await other.browser.get(`${PATH}?report=${sent[0]!.id}`);
    expect(notTheirs.status).toBe(404);
    expect(visibleText(await notTheirs.text())).toContain("That report was not found");
    const forged = encodeCursor({ at: now, kind: "usage", key: "1" }).slice(0, -2);
    const refused = {
      "?cursor=not-a-cursor": "That page link is not valid",
      [`?cursor=${forged}`]: "That page link is not valid",
      [`?cursor=${btoa(JSON.stringify({ at: "1; DROP TABLE reports", kind: "usage", key: "1" }))}`]: "That page link is not valid",
      [`?cursor=${btoa(JSON.stringify({ at: 1, kind: "usage", key: "1 OR 1=1" }))}`]: "That page link is not valid",
      "?from=2026-02-30": "Dates are written YYYY-MM-DD",
      "?from=yesterday": "Dates are written YYYY-MM-DD",
      [`?to=${addDays(today(), 1)}`]: "The end date must not be after today",
      [`?from=${today()}&to=${addDays(today(), -1)}`]: "The start date must not be after the end date",
      [`?from=${addDays(today(), -365)}`]: "Older reports are under Archived months",
      "?status=maybe": "Status is either success or error",
      "?device=../../etc": "That device is not one of this account's device keys",
      [`?model=${"m".repeat(300)}`]: "That filter value is too long",
      "?report=%3Cscript%3E": "That report id is not valid",
      "?archive=2026-13": "An archived month is written YYYY-MM",
      [`?archive=${monthKey(now + 40 * MS.DAY, UTC)}`]: "That month has not happened yet",
    };
    for (const [search, message] of Object.entries(refused)) {
      const response = await browser.get(`${PATH}${search}`);
      expect(response.status, search).toBe(400);
      expect(visibleText(await response.text()), search).toContain(message);
    }
    // Unknown parameters (the sign-out dialog's, a campaign's) are not the log's business.
    expect((await browser.get(`${PATH}?confirm=signout&utm_source=x`)).status).toBe(200);
  });
});

describe("the request log's archived months", () => {
  it("lists the months moved to R2 and shows their reports with the same filters and pages", async () => {
    const now = Date.now();
    const { browser, id: userId } = await createConfirmedUser();
    const start = startOfMonth(now - 200 * MS.DAY, UTC) + MS.DAY;
    const old = Array.from({ length: 120 }, (_, i) => oldUsageAt(start + i * 3 * MS.HOUR, i));
    const recent = [oldUsageAt(now - MS.HOUR, 1)];
    const month = monthKey(start, UTC);
    const result = await ledger(userId).ingest({ usage: [...old, ...recent], secure: [], budget: null, now, importing: true });
    expect(result).toMatchObject({ stored: old.length + recent.length });
    // The archive step the hourly cron runs for each account due (usage-archive.test.ts runs the
    // cron itself), for this account only: files share storage, and others' old rows are theirs.
    expect(await ledger(userId).archive(now, userId)).toMatchObject({ months: [month], rows: old.length });
    expect((await ledger(userId).size()).archivedMonths).toEqual([{ month, rows: old.length }]);

    const listing = await (await browser.get(PATH)).text();
    expect(listing).toContain(`href="${PATH}?archive=${month}"`);
    const newestFirst = (rows: LedgerUsage[]) => [...rows].sort((a, b) => b.occurredAt - a.occurredAt).map((r) => r.id);
    expect([...listing.matchAll(/data-report="([^"]+)"/g)].map((m) => m[1])).toEqual(newestFirst(recent));

    const pagesOf = async (search: string) => (await allPages(browser, search)).pages.flat();
    expect(await pagesOf(`?archive=${month}`)).toEqual(newestFirst(old));
    expect(await pagesOf(`?archive=${month}&model=gpt-4o`)).toEqual(newestFirst(old.filter((r) => r.modelName === "gpt-4o")));
    expect(await pagesOf(`?archive=${month}&status=error&provider=anthropic`)).toEqual(
      newestFirst(old.filter((r) => !r.success && r.modelProvider === "anthropic")),
    );

    const failed = old.find((r) => !r.success)!;
    const detail = await browser.get(`${PATH}?archive=${month}&report=${failed.id}`);
    expect(detail.status).toBe(200);
    expect(visibleText(await detail.text())).toContain("Rate limit exceeded (429)");
    // A month with nothing archived, and an archived report asked for outside its month.
    expect((await browser.get(`${PATH}?archive=${monthKey(now, UTC)}`)).status).toBe(404);
    expect((await browser.get(`${PATH}?report=${failed.id}`)).status).toBe(404);
    // Another account's archive is not reachable through its month.
    const other = await createConfirmedUser();
    expect((await other.browser.get(`${PATH}?archive=${month}&report=${failed.id}`)).status).toBe(404);
  });
});
