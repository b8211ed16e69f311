// Budget alerts as the consumer handles them: every user of a queue batch at once. Whether a
// budget was crossed, once per period, is decided inside the account's ledger (ADR 0020) with the
// budget the consumer read from D1; the consumer mails what the ledgers decided.
import { createMessageBatch, env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { handleEventBatch } from "~/lib/queue/dispatch.server";
import { schema } from "~/lib/db.server";
import type { MailMessage } from "~/lib/queue";
import { getBudget, saveBudget } from "~/lib/usage/budget.server";
import { dayKey, monthKey } from "~/lib/usage/dates";
import { UTC } from "~/lib/time-zone";
import { parseConsumerEnv } from "../../workers/consumer-env";
import { db, insertUser, uniqueEmail } from "./helpers";
import { countingD1, ledger, ledgerSql, recordingQueue, report } from "./usage-helpers";

async function account(budget?: { monthlyBudget: number; dailyBudget: number; alertThresholds: number[]; notificationsEnabled: boolean }) {
  const email = uniqueEmail("budget");
  const user = await insertUser({ email, passwordHash: "x", metadata: {}, confirmed: true });
  if (budget) await saveBudget(db, user.id, budget);
  return { id: user.id, email };
}

let messages = 0;
/** One queue batch with one usage report per entry, as the API enqueues them. */
function usageBatch(spend: Array<{ userId: string; costUsd: number }>) {
  return createMessageBatch(
    "modelify-events",
    spend.map(({ userId, costUsd }) => {
      const now = Date.now();
      return {
        id: `budget-${messages++}`,
        timestamp: new Date(),
        attempts: 1,
        body: { type: "usage.report", userId, receivedAt: now, report: { ...report({ cost_usd: costUsd }), occurred_at: now } } as unknown,
      };
    }),
  );
}

const subjects = (mails: MailMessage[], to: string) => mails.filter((m) => m.to === to).map((m) => m.subject);

/** The alerts each account's ledger claimed: one row per kind and period. */
async function alertRows(userIds: string[]) {
  const rows = await Promise.all(
    userIds.map(async (userId) =>
      (await ledgerSql(userId, "SELECT kind, period FROM budget_alerts")).map((r) => ({ userId, kind: String(r.kind), period: String(r.period) })),
    ),
  );
  return rows.flat();
}

const deps = (queue: Queue, database = db) => ({ db: database, env: parseConsumerEnv(env), queue, ledgers: env.USAGE_LEDGER });

describe("budget alerts for a whole batch", () => {
  it("e-mails each user of the batch who crossed a threshold, once per kind", async () => {
    const monthly = await account({ monthlyBudget: 1, dailyBudget: 100, alertThresholds: [50], notificationsEnabled: true });
    const daily = await account({ monthlyBudget: 1000, dailyBudget: 1, alertThresholds: [80], notificationsEnabled: true });
    const both = await account({ monthlyBudget: 1, dailyBudget: 1, alertThresholds: [80], notificationsEnabled: true });
    const off = await account({ monthlyBudget: 1, dailyBudget: 1, alertThresholds: [50], notificationsEnabled: false });
    // No budget row: the defaults (10.00 a month, 0.50 a day, 80%, notifications on) apply.
    const defaults = await account();
    const below = await account({ monthlyBudget: 10, dailyBudget: 10, alertThresholds: [80], notificationsEnabled: true });
    const { queue, mails } = recordingQueue();

    const batch = usageBatch([
      { userId: monthly.id, costUsd: 0.3 },
      { userId: daily.id, costUsd: 0.45 },
      { userId: both.id, costUsd: 0.5 },
      { userId: off.id, costUsd: 0.9 },
      { userId: defaults.id, costUsd: 0.45 },
      { userId: below.id, costUsd: 0.1 },
      { userId: monthly.id, costUsd: 0.3 },
      { userId: daily.id, costUsd: 0.45 },
      { userId: both.id, costUsd: 0.4 },
    ]);
    await handleEventBatch(deps(queue), batch);

    expect(subjects(mails, monthly.email)).toEqual(["Modelify budget alert: 60% of your monthly budget used"]);
    expect(subjects(mails, daily.email)).toEqual(["Modelify budget alert: 90% of your daily budget used"]);
    expect(subjects(mails, both.email)).toEqual([
      "Modelify budget alert: 90% of your monthly budget used",
      "Modelify budget alert: 90% of your daily budget used",
    ]);
    expect(subjects(mails, defaults.email)).toEqual(["Modelify budget alert: 90% of your daily budget used"]);
    expect(subjects(mails, off.email)).toEqual([]);
    expect(subjects(mails, below.email)).toEqual([]);
    expect(mails).toHaveLength(5);
    const defaultMail = mails.find((m) => m.to === defaults.email)!;
    expect(defaultMail).toMatchObject({ type: "mail.send", links: [] });
    expect(defaultMail.text).toContain("You have spent $0.45 of your daily budget of $0.50 (90%).");
    expect(defaultMail.text).toContain("You passed your 80% alert threshold. You will get at most one e-mail per threshold per day.");

    const rows = await alertRows([monthly.id, daily.id, both.id, off.id, defaults.id, below.id]);
    expect(
      rows
        .map(
          (r) =>
            `${r.userId === both.id ? "both" : r.userId === monthly.id ? "monthly" : r.userId === daily.id ? "daily" : r.userId === defaults.id ? "defaults" : "other"}:${r.kind}`,
        )
        .sort(),
    ).toEqual(["both:daily", "both:monthly", "daily:daily", "defaults:daily", "monthly:monthly"]);
    // Each claimed for the period it is about: this month, or today.
    for (const r of rows) expect(r.period).toBe(r.kind === "monthly" ? monthKey(Date.now(), UTC) : dayKey(Date.now(), UTC));
  });

  it("sends nothing twice: not for a retried batch, nor for more spend in the same period", async () => {
    const a = await account({ monthlyBudget: 1, dailyBudget: 1, alertThresholds: [50], notificationsEnabled: true });
    const b = await account({ monthlyBudget: 100, dailyBudget: 1, alertThresholds: [50], notificationsEnabled: true });
    const { queue, mails } = recordingQueue();
    const batch = usageBatch([
      { userId: a.id, costUsd: 0.6 },
      { userId: b.id, costUsd: 0.6 },
    ]);
    await handleEventBatch(deps(queue), batch);
    expect(mails).toHaveLength(3);

    // The same messages again, as a redelivery brings them: nothing stored, nothing sent.
    const again = createMessageBatch(
      "modelify-events",
      batch.messages.map((m) => ({ id: m.id, timestamp: m.timestamp, attempts: 2, body: m.body })),
    );
    await handleEventBatch(deps(queue), again);
    await handleEventBatch(
      deps(queue),
      usageBatch([
        { userId: a.id, costUsd: 0.3 },
        { userId: b.id, costUsd: 0.3 },
      ]),
    );
    expect(mails).toHaveLength(3);
    expect(await alertRows([a.id, b.id])).toHaveLength(3);

    // A claim that exists is never sent again, even when checked without the batch's usage: the
    // ledger decides alerts at every ingest call, one with no report included.
    for (const user of [a, b]) {
      const result = await ledger(user.id).ingest({ usage: [], secure: [], budget: await getBudget(db, user.id), now: Date.now() });
      expect(result.alerts).toEqual([]);
    }
    expect(await alertRows([a.id, b.id])).toHaveLength(3);
  });

  it("sends each alert once when two batches for the same users are handled at the same time", async () => {
    const users = await Promise.all(
      Array.from({ length: 4 }, () => account({ monthlyBudget: 1, dailyBudget: 1, alertThresholds: [50], notificationsEnabled: true })),
    );
    const { queue, mails } = recordingQueue();
    const spend = users.map((u) => ({ userId: u.id, costUsd: 0.6 }));
    await Promise.all([handleEventBatch(deps(queue), usageBatch(spend)), handleEventBatch(deps(queue), usageBatch(spend))]);
    // Changed by design: each ledger takes one call at a time and decides at that call, so the
    // alert goes out with the first batch's call, at the spend that crossed the threshold (60%).
    // Before, both batches' rows were in D1 when the alerts were checked, and the mail said 120%.
    for (const u of users) {
      expect(subjects(mails, u.email).sort()).toEqual([
        "Modelify budget alert: 60% of your daily budget used",
        "Modelify budget alert: 60% of your monthly budget used",
      ]);
      // Both batches' reports were stored.
      expect((await ledger(u.id).read({ now: Date.now(), spend: true })).spend).toEqual({ monthMicros: 1_200_000, dayMicros: 1_200_000 });
    }
    expect(await alertRows(users.map((u) => u.id))).toHaveLength(8);
  });

  it("checks a full batch of 99 users and an unknown id (more than one statement's 90 accounts) and skips the unknown id", async () => {
    const users = await Promise.all(Array.from({ length: 99 }, () => account()));
    const { queue, mails } = recordingQueue();
    const { db: counted, counts } = countingD1();
    const batch = usageBatch([...users.map((u) => ({ userId: u.id, costUsd: 0.5 })), { userId: "no-such-user", costUsd: 0.5 }]);
    expect(batch.messages).toHaveLength(100);
    await handleEventBatch(deps(queue, counted), batch);
    // The accounts' addresses and budgets are read 90 at a time (2 statements), the unknown id's
    // report is dead-lettered (1), and the shared figures go in one batch: 99 rollup rows in 7
    // statements (16 each), 99 accounts in 3 (33 each).
    expect(counts).toEqual({ prepared: 2 + 1 + 7 + 3, batches: [7 + 3] });
    const ghost = batch.messages.at(-1)!;
    const letter = await db.query.deadLetters.findFirst({ where: eq(schema.deadLetters.id, ghost.id) });
    expect(JSON.parse(letter!.body).reason).toBe("account_not_found");
    expect(mails).toHaveLength(99);
    expect(new Set(mails.map((m) => m.to))).toEqual(new Set(users.map((u) => u.email)));
    expect(mails.every((m) => m.subject === "Modelify budget alert: 100% of your daily budget used")).toBe(true);
  });

  // Before the ledger, the check read budgets and spend in one D1 statement and claimed alerts in
  // one more. Now spend and claims are inside each ledger: D1 sees the same statements whether an
  // alert is sent or not (the budgets' read, then the shared figures' batch).
  it("reads the whole batch's budgets in one statement, and decides and claims alerts with no D1 statement", async () => {
    const users = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        account(i === 4 ? undefined : { monthlyBudget: 1, dailyBudget: 1, alertThresholds: [50], notificationsEnabled: i !== 3 }),
      ),
    );
    const ids = users.map((u) => u.id);
    const { queue, mails } = recordingQueue();
    const spend = async (costUsd: number) => {
      const { db: counted, counts } = countingD1();
      await handleEventBatch(deps(queue, counted), usageBatch(ids.map((userId) => ({ userId, costUsd }))));
      return counts;
    };
    // 1 read of the budgets; then the rollup (5 rows), the accounts (5 rows) in one batch.
    const statements = { prepared: 1 + 2, batches: [2] };
    expect(await spend(0.1)).toEqual(statements);
    expect(mails).toHaveLength(0);
    // Three accounts cross both budgets, the one without a budget row its default daily one (0.50
    // at 80%), the one with notifications off nothing: 7 alerts.
    expect(await spend(0.5)).toEqual(statements);
    expect(mails).toHaveLength(7);
    expect(await spend(0.01)).toEqual(statements);
    expect(mails).toHaveLength(7);
    expect(await alertRows(ids)).toHaveLength(7);
  });

  it("e-mails the account's current address", async () => {
    const user = await account({ monthlyBudget: 1, dailyBudget: 100, alertThresholds: [50], notificationsEnabled: true });
    const changed = uniqueEmail("changed");
    await db.update(schema.users).set({ email: changed }).where(eq(schema.users.id, user.id));
    const { queue, mails } = recordingQueue();
    await handleEventBatch(deps(queue), usageBatch([{ userId: user.id, costUsd: 0.5 }]));
    expect(mails.map((m) => m.to)).toEqual([changed]);
  });
});
