// Alerts where people look (issue 49): several thresholds per budget, model health rules over an
// hour, and signed webhook deliveries through the queue, retried and shown on the Alerts tab; the
// webhook URL refused when it points at this machine or a private network; one account's rules
// and webhooks out of another's reach; the per-account limit held under parallel adds.
import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { alertEventSchema } from "~/lib/alerts/events";
import { retryDelaySeconds } from "~/lib/alerts/deliver.server";
import { WEBHOOK_ADDS_PER_ACCOUNT, WEBHOOKS } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { handleDeadLetters, handleEventBatch } from "~/lib/queue/dispatch.server";
import type { QueueMessage } from "~/lib/queue";
import { saveBudget } from "~/lib/usage/budget.server";
import { monthKey } from "~/lib/usage/dates";
import { toLedgerUsage } from "~/lib/usage/ingest.server";
import type { QueuedUsageReport } from "~/lib/usage/report";
import { UTC } from "~/lib/time-zone";
import { parseConsumerEnv } from "../../workers/consumer-env";
import { createConfirmedUser, db, visibleText, waitForMail } from "./helpers";
import { ledger, ledgerSql, recordingQueue, report } from "./usage-helpers";

let sent = 0;
function usageBatch(userId: string, costs: number[], at = Date.now()) {
  return createMessageBatch(
    "modelify-events",
    costs.map((cost) => ({
      id: `alerts-${sent++}`,
      timestamp: new Date(),
      attempts: 1,
      body: { type: "usage.report", userId, receivedAt: at, report: { ...report({ cost_usd: cost }), occurred_at: at } } as unknown,
    })),
  );
}

/** Hands a batch to the consumer as the queue would, with `fetcher` as its outbound fetch. */
async function consume(queue: Queue, batch: MessageBatch<unknown>, fetcher?: typeof fetch) {
  const ctx = createExecutionContext();
  await handleEventBatch({ db, env: parseConsumerEnv(env), queue, ledgers: env.USAGE_LEDGER, fetcher }, batch);
  return getQueueResult(batch, ctx);
}

const bodies = (sentMessages: unknown[]) => sentMessages as QueueMessage[];
const mailsOf = (all: unknown[]) => bodies(all).filter((m) => m.type === "mail.send");
const deliveriesOf = (all: unknown[]) => bodies(all).filter((m) => m.type === "webhook.deliver");

/** A webhook stand-in: records each request and answers with the next status of `statuses` (then 200). */
function standIn(statuses: number[] = []) {
  const requests: Array<{ url: string; headers: Headers; body: string; redirect: RequestRedirect | undefined }> = [];
  const fetcher = (async (url: string | URL | Request, init?: RequestInit) => {
    requests.push({ url: String(url), headers: new Headers(init?.headers), body: String(init?.body), redirect: init?.redirect });
    const status = statuses.shift() ?? 200;
    return new Response(status === 302 ? null : "ok", { status, headers: status === 302 ? { Location: "http://127.0.0.1/" } : {} });
  }) as typeof fetch;
  return { fetcher, requests };
}

async function hmacHex(secret: string, text: string) {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return [...new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(text)))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function addWebhook(browser: Awaited<ReturnType<typeof createConfirmedUser>>["browser"], url: string) {
  const response = await browser.post("/dashboard/alerts", { intent: "add-webhook", url });
  const html = await response.text();
  return { status: response.status, html, secret: /whsec_[A-Za-z0-9_-]+/.exec(html)?.[0] };
}

describe("budget thresholds", () => {
  it("alerts each of several thresholds once per period, naming the threshold passed", async () => {
    const { id, email } = await createConfirmedUser();
    await saveBudget(db, id, { monthlyBudget: 1, dailyBudget: 0, alertThresholds: [100, 50, 80], notificationsEnabled: true });
    const { queue, mails } = recordingQueue();
    const texts: string[] = [];
    for (const cost of [0.55, 0.3, 0.1, 0.1, 0.5]) {
      const before = mails.length;
      await consume(queue, usageBatch(id, [cost]));
      texts.push(mailsOf(mails.slice(before)).map((m) => (m.type === "mail.send" ? `${m.to}|${m.text.split("\n")[2]}` : ""))[0] ?? "none");
    }
    expect(texts).toEqual([
      `${email}|You passed your 50% alert threshold. You will get at most one e-mail per threshold per month.`,
      `${email}|You passed your 80% alert threshold. You will get at most one e-mail per threshold per month.`,
      "none",
      `${email}|You passed your 100% alert threshold. You will get at most one e-mail per threshold per month.`,
      "none",
    ]);
    const rows = await ledgerSql(id, "SELECT kind, period, threshold FROM budget_alerts ORDER BY threshold");
    expect(rows).toEqual([50, 80, 100].map((threshold) => ({ kind: "monthly", period: monthKey(Date.now(), UTC), threshold })));
  });

  it("sends one mail for a jump past several thresholds, and counts an alert of the one-threshold era as the lowest's", async () => {
    const jump = await createConfirmedUser();
    await saveBudget(db, jump.id, { monthlyBudget: 1, dailyBudget: 0, alertThresholds: [50, 80, 100], notificationsEnabled: true });
    const legacy = await createConfirmedUser();
    await saveBudget(db, legacy.id, { monthlyBudget: 1, dailyBudget: 0, alertThresholds: [60, 90], notificationsEnabled: true });
    // What the migration keeps of an alert sent before thresholds were a list: threshold 0.
    await ledger(legacy.id).read({ now: Date.now() });
    await ledgerSql(
      legacy.id,
      "INSERT INTO budget_alerts (kind, period, threshold, sent_at) VALUES ('monthly', ?, 0, ?)",
      monthKey(Date.now(), UTC),
      Date.now(),
    );
    const { queue, mails } = recordingQueue();
    await consume(queue, usageBatch(jump.id, [1.2]));
    await consume(queue, usageBatch(legacy.id, [0.7]));
    expect(mailsOf(mails).map((m) => m.type === "mail.send" && [m.to, m.subject])).toEqual([
      [jump.email, "Modelify budget alert: 120% of your monthly budget used"],
    ]);
    expect((await ledgerSql(jump.id, "SELECT threshold FROM budget_alerts")).map((r) => r.threshold)).toEqual([50, 80, 100]);
    await consume(queue, usageBatch(legacy.id, [0.25]));
    expect(mailsOf(mails).at(-1)).toMatchObject({ to: legacy.email, subject: "Modelify budget alert: 95% of your monthly budget used" });
  });

  it("keeps the form's one number working and refuses a repeated threshold beside the field", async () => {
    const { browser, id } = await createConfirmedUser();
    const fields = { intent: "save-budget", monthlyBudget: "10", dailyBudget: "1", notificationsEnabled: "on" };
    const repeated = await browser.post("/dashboard/budget", { ...fields, alertThreshold: "80, 80" });
    expect(repeated.status).toBe(400);
    expect(await repeated.text()).toContain("Each alert threshold may appear only once");
    expect((await browser.post("/dashboard/budget", { ...fields, alertThreshold: "100, 50" })).status).toBe(302);
    expect(await db.query.budgets.findFirst({ where: eq(schema.budgets.userId, id) })).toMatchObject({ alertThresholds: [50, 100], alertThreshold: 50 });
    expect(visibleText(await (await browser.get("/dashboard/budget")).text())).toContain("Alerts are sent at 50%, 100% of a budget");
  });
});

describe("model health alerts", () => {
  const T0 = Date.UTC(2026, 10, 20, 10, 0);
  const MIN = 60_000;
  const calls = (model: string, at: number, n: number, failures: number, durationMs = 500) =>
    Array.from({ length: n }, (_, i) =>
      toLedgerUsage({
        userId: "",
        receivedAt: at,
        report: { ...report({ model_name: model, success: i >= failures, request_duration_ms: durationMs }), occurred_at: at } as unknown as QueuedUsageReport,
      }),
    );
  const rules = [
    { id: "rule-errors", kind: "error_rate" as const, threshold: 25 },
    { id: "rule-latency", kind: "latency" as const, threshold: 1000 },
  ];
  const ingest = async (userId: string, usage: ReturnType<typeof calls>, now: number) =>
    (await ledger(userId).ingest({ usage, secure: [], budget: null, now, rules })).health ?? [];

  it("alerts a model's error rate over an hour once per hour, with a minimum of requests, on a controlled clock", async () => {
    const { id } = await createConfirmedUser();
    // 5 of 10 failed: 50% > 25%. Claude: 3 of 3 failed, but 3 requests are too few to page anyone.
    const first = await ingest(id, [...calls("gpt-4o", T0 + 5 * MIN, 10, 5), ...calls("claude-3", T0 + 5 * MIN, 3, 3)], T0 + 6 * MIN);
    expect(first.map((a) => [a.ruleId, a.modelName, Math.round(a.value), a.requests, a.windowStart, a.windowEnd])).toEqual([
      ["rule-errors", "gpt-4o", 50, 10, T0 - 45 * MIN, T0 + 15 * MIN],
    ]);
    // Still failing 15 minutes later: the same hour, no second alert.
    expect(await ingest(id, calls("gpt-4o", T0 + 20 * MIN, 10, 10), T0 + 21 * MIN)).toEqual([]);
    // Slow now (1.5 s): the latency rule is another rule, alerted on its own.
    expect((await ingest(id, calls("gpt-4o", T0 + 40 * MIN, 10, 0, 4000), T0 + 41 * MIN)).map((a) => a.ruleId)).toEqual(["rule-latency"]);
    // An hour after the first alert's window, still failing: alerted again.
    const later = await ingest(id, calls("gpt-4o", T0 + 70 * MIN, 10, 10), T0 + 71 * MIN);
    expect(later.map((a) => [a.ruleId, a.windowEnd])).toEqual([["rule-errors", T0 + 75 * MIN]]);
    // A report of an hour long past alerts nothing.
    expect(await ingest(id, calls("mistral", T0 + 5 * MIN, 20, 20), T0 + 3 * 60 * MIN)).toEqual([]);
    expect(await ledgerSql(id, "SELECT rule_id, model_name FROM health_alerts ORDER BY window_end, rule_id")).toEqual([
      { rule_id: "rule-errors", model_name: "gpt-4o" },
      { rule_id: "rule-latency", model_name: "gpt-4o" },
      { rule_id: "rule-errors", model_name: "gpt-4o" },
    ]);
  });

  it("saves rules from the Alerts tab and the consumer mails a broken one", async () => {
    const { browser, id, email } = await createConfirmedUser();
    const bad = await browser.post("/dashboard/alerts", { intent: "add-rule", kind: "error_rate", threshold: "250" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Enter a value from 1% to 100%");
    expect((await browser.post("/dashboard/alerts", { intent: "add-rule", kind: "error_rate", threshold: "20" })).status).toBe(302);
    const now = Date.now();
    const batch = createMessageBatch(
      "modelify-events",
      Array.from({ length: 12 }, (_, i) => ({
        id: `health-${sent++}`,
        timestamp: new Date(),
        attempts: 1,
        body: { type: "usage.report", userId: id, receivedAt: now, report: { ...report({ success: i % 2 === 0, cost_usd: 0 }), occurred_at: now } },
      })),
    );
    const { queue, mails } = recordingQueue();
    await consume(queue, batch);
    expect(mailsOf(mails).map((m) => m.type === "mail.send" && [m.to, m.subject])).toEqual([
      [email, "Modelify alert: gpt-4o error rate 50.0% over the last hour"],
    ]);
  });
});

describe("webhooks", () => {
  it("delivers one signed event per alert, mails the owner when it is added, and shows the secret once", async () => {
    const { browser, id, email } = await createConfirmedUser();
    const added = await addWebhook(browser, "https://hooks.example.com/modelify");
    expect(added.status).toBe(200);
    expect(added.secret).toMatch(/^whsec_/);
    await waitForMail(email, /A webhook was added to your Modelify account/);
    const page = await (await browser.get("/dashboard/alerts")).text();
    expect(page).toContain("https://hooks.example.com/modelify");
    expect(page).not.toContain(added.secret);
    const stored = await db.query.webhooks.findFirst({ where: eq(schema.webhooks.userId, id) });
    expect(stored!.secretEnc).not.toContain(added.secret!.slice(6));

    // E-mail alerts off: the webhook alone hears of the crossing.
    await saveBudget(db, id, { monthlyBudget: 1, dailyBudget: 0, alertThresholds: [50], notificationsEnabled: false });
    const { queue, mails } = recordingQueue();
    await consume(queue, usageBatch(id, [0.6]));
    await consume(queue, usageBatch(id, [0.1]));
    expect(mailsOf(mails)).toEqual([]);
    const deliveries = deliveriesOf(mails);
    expect(deliveries).toHaveLength(1);

    const hook = standIn();
    const result = await consume(
      queue,
      createMessageBatch("modelify-events", [{ id: "hook-1", timestamp: new Date(), attempts: 1, body: deliveries[0] }]),
      hook.fetcher,
    );
    expect(result.explicitAcks).toEqual(["hook-1"]);
    expect(hook.requests).toHaveLength(1);
    const [request] = hook.requests;
    expect(request!.url).toBe("https://hooks.example.com/modelify");
    expect(request!.redirect).toBe("manual");
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(request!.headers.get("Modelify-Signature")!)!;
    expect(v1).toBe(await hmacHex(added.secret!, `${t}.${request!.body}`));
    expect(Math.abs(Number(t) - Date.now() / 1000)).toBeLessThan(60);
    const event = alertEventSchema.parse(JSON.parse(request!.body));
    expect(event).toMatchObject({ type: "budget.threshold_crossed", data: { budget: "monthly", threshold_percent: 50, used_percent: 60, limit_usd: 1 } });
    expect(request!.headers.get("Modelify-Delivery")).toBe(event.id);
  });

  it("retries a failing webhook with a growing delay, shows failed and delivered attempts, and dead-letters the last failure", async () => {
    const { browser, id } = await createConfirmedUser();
    await addWebhook(browser, "https://hooks.example.com/flaky");
    await saveBudget(db, id, { monthlyBudget: 1, dailyBudget: 0, alertThresholds: [50], notificationsEnabled: true });
    const { queue, mails } = recordingQueue();
    await consume(queue, usageBatch(id, [0.6]));
    const [delivery] = deliveriesOf(mails);
    const delays: Array<number | undefined> = [];
    const attempt = (n: number, hook: ReturnType<typeof standIn>) => {
      const batch = createMessageBatch("modelify-events", [{ id: `flaky-${n}`, timestamp: new Date(), attempts: n, body: delivery }]);
      // The delay asked of the queue (its test result keeps only which messages were retried).
      for (const message of batch.messages) {
        const retry = message.retry.bind(message);
        Object.assign(message, {
          retry: (options?: QueueRetryOptions) => {
            delays.push(options?.delaySeconds);
            retry(options);
          },
        });
      }
      return consume(queue, batch, hook.fetcher);
    };
    const failing = standIn([500, 302]);
    expect((await attempt(1, failing)).retryMessages).toEqual([{ msgId: "flaky-1" }]);
    expect((await attempt(2, failing)).retryMessages).toEqual([{ msgId: "flaky-2" }]);
    expect((await attempt(3, failing)).explicitAcks).toEqual(["flaky-3"]);
    expect(delays).toEqual([WEBHOOKS.retryBaseSeconds, 2 * WEBHOOKS.retryBaseSeconds]);
    expect(retryDelaySeconds(30)).toBe(WEBHOOKS.retryMaxSeconds);
    const page = visibleText(await (await browser.get("/dashboard/alerts")).text());
    expect(page).toContain("Failed: HTTP 500");
    expect(page).toContain("Failed: Redirects are not followed");
    expect(page).toContain("Delivered (200)");
    // The last of WEBHOOKS.maxAttempts fails too: the queue hands it to the dead letters, kept without the event's figures.
    const last = createMessageBatch("modelify-events-dlq", [{ id: "flaky-dead", timestamp: new Date(), attempts: 1, body: delivery }]);
    await handleDeadLetters({ db, bucket: env.BUCKET }, last);
    const letter = await db.query.deadLetters.findFirst({ where: eq(schema.deadLetters.id, "flaky-dead") });
    expect(JSON.parse(letter!.body)).toMatchObject({ kind: "webhook.deliver", userId: id, reason: "retries_exhausted" });
    expect(letter!.body).not.toContain("threshold");
  });

  it("refuses URLs to this machine, private networks and plain HTTP with a clear message and 400, storing nothing", async () => {
    const { browser, id } = await createConfirmedUser();
    const urls = [
      "https://127.0.0.1/hook",
      "https://10.0.0.8/hook",
      "https://192.168.1.20/hook",
      "https://172.16.5.4/hook",
      "https://169.254.169.254/latest/meta-data",
      "https://100.64.0.1/hook",
      "https://[::1]/hook",
      "https://[::ffff:127.0.0.1]/hook",
      "https://[fd00::1]/hook",
      "https://[fe80::1]/hook",
      "https://2130706433/hook",
      "https://0x7f.1/hook",
      "https://localhost/hook",
      "https://printer.local/hook",
      "https://metadata.google.internal/hook",
      "https://intranet/hook",
    ];
    for (const url of urls) {
      const answer = await addWebhook(browser, url);
      expect(answer.status, url).toBe(400);
      expect(visibleText(answer.html), url).toContain("Webhook URLs must point to a public internet address, not to this machine or a private network");
    }
    const plain = await addWebhook(browser, "http://hooks.example.com/hook");
    expect(plain.status).toBe(400);
    expect(plain.html).toContain("Webhook URLs must start with https://");
    const secretInUrl = await addWebhook(browser, "https://user:pass@hooks.example.com/hook");
    expect(secretInUrl.status).toBe(400);
    expect(await db.select().from(schema.webhooks).where(eq(schema.webhooks.userId, id))).toEqual([]);
  });

  it("keeps one account's webhooks and rules out of another's sight and reach, and refuses a cross-site form", async () => {
    const owner = await createConfirmedUser();
    const other = await createConfirmedUser();
    await addWebhook(owner.browser, "https://hooks.example.com/owner-only");
    await owner.browser.post("/dashboard/alerts", { intent: "add-rule", kind: "latency", threshold: "4321" });
    const hook = await db.query.webhooks.findFirst({ where: eq(schema.webhooks.userId, owner.id) });
    const rule = await db.query.alertRules.findFirst({ where: eq(schema.alertRules.userId, owner.id) });
    const seen = await (await other.browser.get("/dashboard/alerts")).text();
    expect(seen).not.toContain("owner-only");
    expect(seen).not.toContain("4321");
    for (const [intent, target] of [
      ["remove-webhook", hook!.id],
      ["remove-rule", rule!.id],
    ] as const) {
      const answer = await other.browser.post("/dashboard/alerts", { intent, id: target });
      expect(answer.status).toBe(404);
    }
    expect((await other.browser.post("/dashboard/alerts", { intent: "remove-webhook", id: "not-a-uuid" })).status).toBe(404);
    const forged = await owner.browser.post("/dashboard/alerts", { intent: "remove-webhook", id: hook!.id }, { Origin: "https://evil.example" });
    // The Origin check of every form (readForm) refuses it before the action runs.
    expect(forged.status).toBe(400);
    const forgedAdd = await owner.browser.post(
      "/dashboard/alerts",
      { intent: "add-webhook", url: "https://evil.example/x" },
      { Origin: "https://evil.example" },
    );
    expect(forgedAdd.status).toBe(400);
    expect(await db.select().from(schema.webhooks).where(eq(schema.webhooks.userId, owner.id))).toHaveLength(1);
    expect(await db.query.webhooks.findFirst({ where: eq(schema.webhooks.id, hook!.id) })).toBeDefined();
    expect(await db.query.alertRules.findFirst({ where: eq(schema.alertRules.id, rule!.id) })).toBeDefined();
    expect((await owner.browser.post("/dashboard/alerts", { intent: "remove-webhook", id: hook!.id })).status).toBe(302);
    expect(await db.query.webhooks.findFirst({ where: eq(schema.webhooks.id, hook!.id) })).toBeUndefined();
  });

  it("holds the limit of webhooks per account under parallel adds", async () => {
    const { browser, id } = await createConfirmedUser();
    const answers = await Promise.all(Array.from({ length: WEBHOOKS.maxPerAccount + 5 }, (_, i) => addWebhook(browser, `https://hooks.example.com/${i}`)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(WEBHOOKS.maxPerAccount);
    expect(answers.filter((a) => a.status === 409).every((a) => a.html.includes(`at most ${WEBHOOKS.maxPerAccount} webhooks`))).toBe(true);
    expect(await db.select().from(schema.webhooks).where(eq(schema.webhooks.userId, id))).toHaveLength(WEBHOOKS.maxPerAccount);
  });

  it(`adds at most ${WEBHOOK_ADDS_PER_ACCOUNT.limit} webhooks a day, removals aside, exactly under a burst; then 429 with Retry-After`, async () => {
    const { browser, id } = await createConfirmedUser();
    const { limit } = WEBHOOK_ADDS_PER_ACCOUNT;
    const ownHooks = () => db.select().from(schema.webhooks).where(eq(schema.webhooks.userId, id));
    // Added and removed, one after another: the account never holds more than one.
    for (let i = 0; i < limit - WEBHOOKS.maxPerAccount; i++) {
      expect((await addWebhook(browser, `https://hooks.example.com/loop-${i}`)).status).toBe(200);
      const [hook] = await ownHooks();
      expect((await browser.post("/dashboard/alerts", { intent: "remove-webhook", id: hook!.id })).status).toBe(302);
    }
    // What is left of the day's adds, asked for twice over at once: exactly that many are added.
    const burst = await Promise.all(
      Array.from({ length: 2 * WEBHOOKS.maxPerAccount }, (_, i) =>
        browser.post("/dashboard/alerts", { intent: "add-webhook", url: `https://hooks.example.com/burst-${i}` }),
      ),
    );
    expect(burst.filter((r) => r.status === 200)).toHaveLength(WEBHOOKS.maxPerAccount);
    const refused = burst.filter((r) => r.status === 429);
    expect(refused).toHaveLength(WEBHOOKS.maxPerAccount);
    for (const r of refused) expect(Number(r.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(visibleText(await refused[0]!.text())).toContain(`You have added ${limit} webhooks within a day`);
    expect(await ownHooks()).toHaveLength(WEBHOOKS.maxPerAccount);
  });
});
