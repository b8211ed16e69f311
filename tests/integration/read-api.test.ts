// Issue 49, the read API and personal API keys (ADR 0034), through the real runtime: a key is made
// on the dashboard only with a recent proof, stored as its SHA-256, mailed to the owner; it reads
// the account's own summary and request log, and nothing else: it cannot report usage or claim,
// a revoked key is refused at once, another account's key reads nothing of this one's, a burst
// gets exactly the per-key limit, and the summary's totals equal the request log's rows summed
// over the same range, for reports sent through the real queue and consumer.
import { SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { AUTH_MESSAGES } from "~/lib/auth/messages";
import { API_KEYS, MS, READ_API } from "~/lib/constants";
import { sha256Hex } from "~/lib/crypto";
import { schema } from "~/lib/db.server";
import { dayKey } from "~/lib/usage/dates";
import { type Browser, createConfirmedUser, db, ORIGIN, staleProof, STRONG_PASSWORD, waitForMail } from "./helpers";
import { apiUser, deviceToken, postUsage, report, waitForRows } from "./usage-helpers";

const KEYS_PAGE = "/dashboard/api-keys";
const ZONE = "Asia/Kathmandu";

function read(path: string, token: string) {
  return SELF.fetch(`${ORIGIN}/api/v1/usage/${path}`, { headers: { Authorization: `Bearer ${token}` } });
}

/** Makes a key on the dashboard (a plain form); its secret is on the answer's page, once. */
async function makeKey(browser: Browser, fields: Record<string, string> = {}) {
  const page = await browser.post(KEYS_PAGE, { intent: "create", name: "Billing script", ...fields });
  const html = await page.text();
  return { status: page.status, html, secret: new RegExp(`${API_KEYS.prefix}[A-Za-z0-9]{${API_KEYS.secretLength}}`).exec(html)?.[0] ?? null };
}

const keysOf = (userId: string) => db.select().from(schema.apiKeys).where(eq(schema.apiKeys.userId, userId));

describe("making a key", () => {
  it("needs a recent proof: without one nothing is stored; with the password the key is shown once, kept hashed, and mailed", async () => {
    const { browser, id, email } = await createConfirmedUser();
    await staleProof(browser);
    const refused = await makeKey(browser);
    expect(refused.status).toBe(401);
    expect(refused.html).toContain(AUTH_MESSAGES.recentProofRequired.replace(/'/g, "&#x27;"));
    expect(refused.secret).toBeNull();
    expect(await keysOf(id)).toEqual([]);

    const made = await makeKey(browser, { password: STRONG_PASSWORD });
    expect(made.status).toBe(200);
    const secret = made.secret!;
    const [row] = await keysOf(id);
    expect(row!.secretHash).toBe(await sha256Hex(secret));
    expect(row!.prefix).toBe(secret.slice(0, API_KEYS.shownLength));
    expect(row!.scopes).toEqual(["usage:read"]);
    // The secret itself is nowhere in D1's row.
    expect(JSON.stringify(row)).not.toContain(secret.slice(API_KEYS.shownLength));
    const mail = await waitForMail(email, /An API key was made/);
    expect(mail.text).not.toContain(secret.slice(API_KEYS.shownLength));
    // The list shows its prefix only; the page never shows the secret again.
    const listed = await (await browser.get(KEYS_PAGE)).text();
    expect(listed).toContain(row!.prefix);
    expect(listed).not.toContain(secret);
  });

  it("stops at the per-account limit, even for parallel requests", async () => {
    const { browser, id } = await createConfirmedUser();
    const made = await Promise.all(Array.from({ length: API_KEYS.maxPerAccount + 5 }, () => makeKey(browser)));
    expect(made.filter((m) => m.status === 200)).toHaveLength(API_KEYS.maxPerAccount);
    expect(made.filter((m) => m.status === 409)).toHaveLength(5);
    expect(await keysOf(id)).toHaveLength(API_KEYS.maxPerAccount);
  });
});

describe("a personal key", () => {
  it("reads the summary, and cannot report usage, send a fallback report, claim or read the account", async () => {
    const { browser, userId, token } = await apiUser();
    const { secret } = await makeKey(browser);
    const summary = await read("summary", secret!);
    expect(summary.status).toBe(200);
    expect(await summary.json()).toMatchObject({ time_zone: "UTC", group_by: "model", groups: [], totals: { requests: 0 } });
    // The desktop app's token reads it too.
    expect((await read("summary", token)).status).toBe(200);

    const refusals = await Promise.all([
      postUsage(secret, report()),
      SELF.fetch(`${ORIGIN}/api/v1/usage/secure-report`, {
        method: "POST",
        headers: { Authorization: `Bearer ${secret}`, "Content-Type": "application/json" },
        body: "{}",
      }),
      SELF.fetch(`${ORIGIN}/api/v1/entitlements/claim`, { method: "POST", headers: { Authorization: `Bearer ${secret}` } }),
      SELF.fetch(`${ORIGIN}/api/v1/me`, { headers: { Authorization: `Bearer ${secret}` } }),
    ]);
    for (const refused of refusals) {
      expect(refused.status).toBe(403);
      const body = await refused.json<{ error: string; code: string }>();
      expect(body.code).toBe("insufficient_scope");
      expect(body.error).toMatch(/only read usage/);
      expect(refused.headers.get("WWW-Authenticate")).toContain('error="insufficient_scope"');
    }
    // Nothing was queued: the ledger still holds nothing.
    expect((await (await read("summary", secret!)).json<{ totals: { requests: number } }>()).totals.requests).toBe(0);
    expect(await keysOf(userId)).toHaveLength(1);
  });

  it("is refused at once when revoked, and the owner is mailed; another account cannot revoke it", async () => {
    const owner = await createConfirmedUser();
    const other = await createConfirmedUser();
    const { secret } = await makeKey(owner.browser);
    const [row] = await keysOf(owner.id);

    const stranger = await other.browser.post(KEYS_PAGE, { intent: "revoke", id: row!.id });
    expect(stranger.headers.get("Location")).toBe(`${KEYS_PAGE}?revoked=0`);
    expect((await read("summary", secret!)).status).toBe(200);

    const revoked = await owner.browser.post(KEYS_PAGE, { intent: "revoke", id: row!.id });
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get("Location")).toBe(`${KEYS_PAGE}?revoked=1`);
    const refused = await read("summary", secret!);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("WWW-Authenticate")).toContain('error="invalid_token"');
    expect((await read("requests", secret!)).status).toBe(401);
    await waitForMail(owner.email, /An API key of your Modelify account was revoked/);
  });

  it("of a second account never reads the first's usage", async () => {
    const first = await apiUser();
    const second = await createConfirmedUser();
    expect((await postUsage(first.token, { reports: [report(), report()] })).status).toBe(202);
    await waitForRows(first.userId, 2);
    const { secret: firstKey } = await makeKey(first.browser);
    const { secret: secondKey } = await makeKey(second.browser);
    const own = await (await read("summary", firstKey!)).json<{ totals: { requests: number } }>();
    expect(own.totals.requests).toBe(2);
    const theirs = await (await read("summary", secondKey!)).json<{ totals: { requests: number } }>();
    expect(theirs.totals.requests).toBe(0);
    const log = await (await read("requests", secondKey!)).json<{ requests: unknown[] }>();
    expect(log.requests).toEqual([]);
  });

  it(`gets exactly ${READ_API.perMinute} reads of a burst, the rest 429 with Retry-After`, async () => {
    const { browser } = await createConfirmedUser();
    const { secret } = await makeKey(browser);
    const burst = await Promise.all(Array.from({ length: READ_API.perMinute + 15 }, () => read("summary", secret!)));
    expect(burst.filter((r) => r.status === 200)).toHaveLength(READ_API.perMinute);
    const limited = burst.filter((r) => r.status === 429);
    expect(limited).toHaveLength(15);
    for (const r of limited) expect(Number(r.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    await Promise.all(burst.map((r) => r.body?.cancel()));
  });
});

describe("bad queries", () => {
  it("answer 400 with what is wrong, for each parameter", async () => {
    const { browser } = await createConfirmedUser();
    const { secret } = await makeKey(browser);
    const cases: Array<[string, RegExp]> = [
      ["summary?from=2026-13-01", /from must be a date as YYYY-MM-DD/],
      ["summary?from=2026-02-30", /from must be a date/],
      ["summary?group_by=colour", /group_by must be one of model, provider, device, request_type, date/],
      ["summary?groupby=model", /Unknown parameter: groupby/],
      ["summary?from=2026-05-01&from=2026-06-01", /from is given more than once/],
      ["summary?from=2026-05-10&to=2026-05-01", /to \(2026-05-01\) is before from \(2026-05-10\)/],
      [`summary?from=2024-01-01&to=2026-01-01`, new RegExp(`at most ${READ_API.maxSummaryDays} days`)],
      ["requests?limit=0", /limit must be at least 1/],
      [`requests?limit=${READ_API.maxPageSize + 1}`, new RegExp(`limit must be at most ${READ_API.maxPageSize}`)],
      ["requests?limit=ten", /limit must be a whole number/],
      ["requests?status=failed", /status must be success or error/],
      ["requests?cursor=bm90LWEtY3Vyc29y", /cursor is not a cursor this API gave/],
      ["requests?cursor=%7B%7D", /cursor is not a cursor this API gave/],
      ["requests?from=2020-01-01&to=2020-01-02", /the request log keeps the last \d+ days/],
    ];
    for (const [path, message] of cases) {
      const answer = await read(path, secret!);
      expect(answer.status, path).toBe(400);
      expect((await answer.json<{ error: string }>()).error, path).toMatch(message);
    }
  });
});

type Summary = {
  time_zone: string;
  totals: { requests: number; successes: number; errors: number; tokens: number; tokens_input: number; tokens_output: number; cost_usd: number };
  groups: Array<{ key: string; requests: number; cost_usd: number }>;
};
type LogRowBody = {
  id: string;
  occurred_at: string;
  model: string;
  device_id: string | null;
  status: string;
  requests: number;
  tokens: number;
  tokens_input: number;
  tokens_output: number;
  cost_usd: number;
};

/** Every row of the log for a query, following next_cursor page by page. */
async function wholeLog(key: string, query: string, limit = 37) {
  const rows: LogRowBody[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const answer = await read(`requests?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`, key);
    expect(answer.status).toBe(200);
    const page: { requests: LogRowBody[]; next_cursor: string | null } = await answer.json();
    rows.push(...page.requests);
    cursor = page.next_cursor;
    pages++;
  } while (cursor !== null && pages < 50);
  return rows;
}

const micros = (usd: number) => Math.round(usd * 1e6);

describe("the summary and the request log", () => {
  it("agree: the summary's totals, grouped any way, are the log's rows summed over the same range", async () => {
    const { browser, userId } = await apiUser();
    await db.update(schema.userProfiles).set({ timezone: ZONE }).where(eq(schema.userProfiles.userId, userId));
    const devices = await Promise.all([deviceToken(browser, "Read laptop"), deviceToken(browser, "Read desktop")]);
    const models = [
      { model_name: "gpt-4o", model_provider: "openai" },
      { model_name: "gpt-4o-mini", model_provider: "openai" },
      { model_name: "claude-sonnet-4", model_provider: "anthropic" },
    ];
    const now = Date.now();
    const sent = Array.from({ length: 200 }, (_, i) =>
      report({
        ...models[i % 3],
        occurred_at: new Date(now - i * 11 * 60_000).toISOString(),
        success: i % 40 !== 7,
        tokens_input: 100 + i,
        tokens_output: 50,
        tokens_used: 150 + i,
        cost_usd: (1000 + i * 13) / 1e6,
        request_duration_ms: 300 + i,
      }),
    );
    for (let b = 0; b < 4; b++) {
      const answer = await postUsage(devices[b % 2]!, { reports: sent.slice(b * 50, b * 50 + 50) });
      expect(answer.status).toBe(202);
    }
    await waitForRows(userId, sent.length);
    const { secret } = await makeKey(browser);
    const key = secret!;
    const range = `from=${dayKey(now - 3 * MS.DAY, ZONE)}`;

    const log = await wholeLog(key, range);
    expect(log).toHaveLength(sent.length);
    expect(new Set(log.map((r) => r.id)).size).toBe(sent.length);
    expect(log.every((r) => r.occurred_at.endsWith("+05:45"))).toBe(true);
    const sum = (rows: LogRowBody[]) => ({
      requests: rows.reduce((s, r) => s + r.requests, 0),
      errors: rows.filter((r) => r.status === "error").length,
      tokens: rows.reduce((s, r) => s + r.tokens, 0),
      tokens_input: rows.reduce((s, r) => s + r.tokens_input, 0),
      tokens_output: rows.reduce((s, r) => s + r.tokens_output, 0),
      cost: rows.reduce((s, r) => s + micros(r.cost_usd), 0),
    });
    const logged = sum(log);
    expect(logged.errors).toBe(5);

    for (const group of ["model", "provider", "device", "request_type", "date"]) {
      const answer = await read(`summary?${range}&group_by=${group}`, key);
      expect(answer.status).toBe(200);
      const summary = await answer.json<Summary>();
      expect(summary.time_zone).toBe(ZONE);
      const { totals } = summary;
      expect({
        requests: totals.requests,
        errors: totals.errors,
        tokens: totals.tokens,
        tokens_input: totals.tokens_input,
        tokens_output: totals.tokens_output,
        cost: micros(totals.cost_usd),
      }).toEqual(logged);
      expect(summary.groups.reduce((s, g) => s + g.requests, 0)).toBe(totals.requests);
    }

    // A filter of the log agrees with its group of the summary.
    const byModel = await (await read(`summary?${range}&group_by=model`, key)).json<Summary>();
    const mini = byModel.groups.find((g) => g.key === "gpt-4o-mini")!;
    const miniLog = await wholeLog(key, `${range}&model=gpt-4o-mini`);
    expect(miniLog.every((r) => r.model === "gpt-4o-mini")).toBe(true);
    expect({ requests: mini.requests, cost: micros(mini.cost_usd) }).toEqual({ requests: sum(miniLog).requests, cost: sum(miniLog).cost });
    const failed = await wholeLog(key, `${range}&status=error`);
    expect(failed).toHaveLength(5);
  });
});
