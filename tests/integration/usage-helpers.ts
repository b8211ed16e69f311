import { env, runInDurableObject, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { getDb, schema } from "~/lib/db.server";
import { monthKey } from "~/lib/usage/dates";
import { UTC } from "~/lib/time-zone";
import { type LedgerNamespace, ledgerFor, type UsageLedgerApi } from "~/lib/usage/ledger/api";
import { expect } from "vitest";
import { type Browser, createConfirmedUser, db, ORIGIN, STRONG_PASSWORD, uniqueIp, waitFor } from "./helpers";
import type { MailMessage } from "~/lib/queue";
import type { LedgerUsage } from "~/lib/usage/ledger/types";

export async function apiUser() {
  const { browser, email } = await createConfirmedUser();
  const response = await SELF.fetch("http://localhost/api/v1/auth/token", {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": uniqueIp() },
    body: JSON.stringify({ email, password: STRONG_PASSWORD }),
  });
  const tokens = await response.json<{ access_token: string; user: { id: string } }>();
  return { browser, email, token: tokens.access_token, userId: tokens.user.id };
}

let n = 0;
export function report(overrides: Record<string, unknown> = {}) {
  n++;
  return {
    report_id: crypto.randomUUID(),
    model_name: "gpt-4o",
    model_provider: "openai",
    request_type: "chat",
    tokens_used: 1500,
    tokens_input: 1000,
    tokens_output: 500,
    cost_usd: 0.0125,
    request_duration_ms: 1200,
    success: true,
    metadata: { conversation_id: `conv-${n % 3}` },
    app_version: "1.0.5",
    app_instance_id: "instance-1",
    ...overrides,
  };
}

export function postUsage(token: string | null, body: unknown, headers: Record<string, string> = {}) {
  return SELF.fetch("http://localhost/api/v1/usage", {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** The account's usage ledger (a Durable Object), as the Workers reach it. */
export function ledger(userId: string) {
  return ledgerFor(env.USAGE_LEDGER, userId);
}

/** Raw reports (and fallback reports) the account's ledger holds. */
export async function storedCount(userId: string) {
  const size = await ledger(userId).size();
  return size.reports + size.secure;
}

/** The account's daily aggregate rows, all of them. */
export async function dailyRows(userId: string) {
  return (await ledger(userId).read({ now: Date.now(), dailyFrom: "0000-00-00" })).daily ?? [];
}

export async function summedRequests(userId: string) {
  return (await dailyRows(userId)).reduce((sum, r) => sum + r.totalRequests, 0);
}

/** Waits until the consumer stored `expected` raw rows for the user (through the real queue). */
export async function waitForRows(userId: string, expected: number, timeoutMs = 15_000) {
  let current = 0;
  const stored = async () => {
    current = await storedCount(userId);
    return current >= expected;
  };
  await waitFor(stored, `${expected} usage rows for ${userId}`, timeoutMs);
  return current;
}

export async function dailyRow(userId: string, model: string) {
  return (await dailyRows(userId)).find((r) => r.modelName === model);
}

/**
 * Rows of a table inside the account's ledger, read in the object itself (for what no RPC method
 * returns, such as the budget alerts it claimed).
 */
export async function ledgerSql(userId: string, query: string, ...params: SqlStorageValue[]) {
  const stub = env.USAGE_LEDGER.get(env.USAGE_LEDGER.idFromName(userId));
  return runInDurableObject(stub, (_instance, state) => state.storage.sql.exec(query, ...params).toArray());
}

/** Every raw report (and fallback report) the ledger holds of the months from `since` to now. */
export async function rawReports(userId: string, since = Date.now()) {
  const months = new Set<string>();
  for (let t = since; t <= Date.now(); t += 86_400_000) months.add(monthKey(t, UTC));
  months.add(monthKey(Date.now(), UTC));
  const rows = await Promise.all([...months].map((month) => ledger(userId).rawReports(month, userId)));
  return rows.flat();
}

/** The account's whole totals per day, as its ledger's daily rows add up. */
export async function ledgerDayTotals(userId: string) {
  const byDay = new Map<string, { requests: number; tokens: number; costMicros: number }>();
  for (const row of await dailyRows(userId)) {
    const t = byDay.get(row.date) ?? { requests: 0, tokens: 0, costMicros: 0 };
    t.requests += row.totalRequests;
    t.tokens += row.totalTokens;
    t.costMicros += row.totalCostMicros;
    byDay.set(row.date, t);
  }
  return [...byDay].sort(([a], [b]) => (a < b ? -1 : 1)).map(([date, t]) => ({ date, ...t }));
}

/** The account's day totals in D1's cross-account rollup. */
export async function rollupDays(userId: string) {
  const rows = await db.select().from(schema.usageRollup).where(eq(schema.usageRollup.userId, userId)).orderBy(schema.usageRollup.date);
  return rows.map(({ date, requests, tokens, costMicros }) => ({ date, requests, tokens, costMicros }));
}

type IngestInput = Parameters<UsageLedgerApi["ingest"]>[0];

/**
 * The ledger namespace as the consumer gets it (ConsumerDeps.ledgers), recording each ingest call
 * (whose ledger, how many reports) before passing it on to the real object. `fail` makes a call
 * throw instead (a ledger that cannot take that call), for poison-report tests.
 */
export function recordingLedgers(fail: (input: IngestInput) => boolean = () => false) {
  const namespace = env.USAGE_LEDGER;
  const names = new Map<string, string>();
  const calls: Array<{ userId: string; usage: string[]; secure: string[]; failed: boolean }> = [];
  const ledgers = {
    idFromName(name: string) {
      const id = namespace.idFromName(name);
      names.set(id.toString(), name);
      return id;
    },
    get(id: DurableObjectId) {
      const stub = namespace.get(id) as unknown as UsageLedgerApi;
      const userId = names.get(id.toString()) ?? id.toString();
      return {
        ingest(input: IngestInput) {
          const failed = fail(input);
          calls.push({ userId, usage: input.usage.map((u) => u.id), secure: input.secure.map((s) => s.reportHash), failed });
          if (failed) return Promise.reject(new Error("the ledger refused this call (test double)"));
          return stub.ingest(input);
        },
      };
    },
  };
  return { ledgers: ledgers as unknown as LedgerNamespace, calls };
}

/** A D1 binding that counts the statements prepared and the batches sent (and their sizes). */
export function countingD1(d1: D1Database = env.DB) {
  const counts = { prepared: 0, batches: [] as number[] };
  const binding = new Proxy(d1, {
    get(target, prop) {
      if (prop === "prepare") {
        return (query: string) => {
          counts.prepared += 1;
          return target.prepare(query);
        };
      }
      if (prop === "batch") {
        return (statements: D1PreparedStatement[]) => {
          counts.batches.push(statements.length);
          return target.batch(statements);
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { db: getDb(binding), counts };
}

/** A queue that keeps what is sent to it, so a test sees every mail (budget alerts) the moment it is enqueued. */
export function recordingQueue() {
  const mails: MailMessage[] = [];
  const queue = {
    send: async (body: MailMessage) => {
      mails.push(body);
    },
    sendBatch: async (messages: Array<{ body: MailMessage }>) => {
      mails.push(...messages.map((m) => m.body));
    },
  } as unknown as Queue;
  return { queue, mails };
}

/** A device of the account, signed in as the desktop app does (device authorization, ADR 0018): its own bearer token. */
export async function deviceToken(owner: Browser, name: string): Promise<string> {
  const asked = await SELF.fetch(`${ORIGIN}/api/v1/auth/device`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": uniqueIp() },
    body: JSON.stringify({ client_id: "modelify-desktop", device_name: name, platform: "linux", app_version: "2.0.0", app_instance_id: crypto.randomUUID() }),
  });
  expect(asked.status).toBe(200);
  const code = await asked.json<{ device_code: string; user_code: string }>();
  expect((await owner.post("/device", { intent: "approve", code: code.user_code })).status).toBe(200);
  const exchanged = await SELF.fetch(`${ORIGIN}/api/v1/auth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": uniqueIp() },
    body: JSON.stringify({ grant_type: "urn:ietf:params:oauth:grant-type:device_code", device_code: code.device_code, client_id: "modelify-desktop" }),
  });
  expect(exchanged.status).toBe(200);
  return (await exchanged.json<{ access_token: string }>()).access_token;
}

/** A device key approved on /device for `context` (a team's slug, or "" for personal); the token answer's team. */
export async function deviceKey(browser: Browser, context: string) {
  const asked = await SELF.fetch(`${ORIGIN}/api/v1/auth/device`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": uniqueIp() },
    body: JSON.stringify({
      client_id: "modelify-desktop",
      device_name: "Laptop",
      platform: "linux",
      app_version: "2.0.0",
      app_instance_id: crypto.randomUUID(),
    }),
  });
  const code = await asked.json<{ device_code: string; user_code: string }>();
  const approved = await browser.post("/device", { intent: "approve", code: code.user_code, context });
  expect(approved.status).toBe(200);
  const exchanged = await SELF.fetch(`${ORIGIN}/api/v1/auth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": uniqueIp() },
    body: JSON.stringify({ grant_type: "urn:ietf:params:oauth:grant-type:device_code", device_code: code.device_code, client_id: "modelify-desktop" }),
  });
  expect(exchanged.status).toBe(200);
  return exchanged.json<{ access_token: string; team: { slug: string; name: string } | null }>();
}

/** A report of `occurredAt` (i varies its model, figures and failures), as the archive's tests put rows past retention straight into a ledger. */
export function oldUsageAt(occurredAt: number, i: number): LedgerUsage {
  return {
    id: crypto.randomUUID(),
    occurredAt,
    receivedAt: occurredAt + 300,
    modelName: i % 2 ? "gpt-4o" : "claude-sonnet-4",
    modelProvider: i % 2 ? "openai" : "anthropic",
    requestType: "chat",
    tokensUsed: 1000 + i,
    tokensInput: 700 + i,
    tokensOutput: 300,
    costMicros: 10_000 + i,
    durationMs: 900 + i,
    success: i % 7 !== 0,
    errorMessage: i % 7 === 0 ? "Rate limit exceeded (429)" : null,
    metadata: JSON.stringify({ conversation_id: `conv-${i % 4}` }),
    conversationId: `conv-${i % 4}`,
    appVersion: "1.0.5",
    appInstanceId: "archive-test",
    deviceId: null,
  };
}
