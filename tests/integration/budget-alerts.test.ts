// Budget alerts as the consumer checks them: every user of a queue batch at once.
import { createMessageBatch, env } from "cloudflare:test";
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { handleEventBatch } from "~/lib/consumer.server";
import { schema } from "~/lib/db.server";
import type { MailMessage } from "~/lib/queue";
import { checkBudgetAlerts, saveBudget } from "~/lib/usage/budget.server";
import { type UsageItem, writeUsage } from "~/lib/usage/ingest.server";
import { metered, requestDb } from "~/server/db";
import { parseConsumerEnv } from "../../workers/consumer-env";
import { db, insertUser, uniqueEmail } from "./helpers";
import { report } from "./usage-helpers";

/** A queue that keeps what is sent to it, so a test sees every alert the moment it is enqueued. */
function recordingQueue() {
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

async function account(budget?: { monthlyBudget: number; dailyBudget: number; alertThreshold: number; notificationsEnabled: boolean }) {
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

async function alertRows(userIds: string[]) {
  return db.select().from(schema.budgetAlerts).where(inArray(schema.budgetAlerts.userId, userIds));
}

describe("budget alerts for a whole batch", () => {
  it("e-mails each user of the batch who crossed a threshold, once per kind", async () => {
    const monthly = await account({ monthlyBudget: 1, dailyBudget: 100, alertThreshold: 50, notificationsEnabled: true });
    const daily = await account({ monthlyBudget: 1000, dailyBudget: 1, alertThreshold: 80, notificationsEnabled: true });
    const both = await account({ monthlyBudget: 1, dailyBudget: 1, alertThreshold: 80, notificationsEnabled: true });
    const off = await account({ monthlyBudget: 1, dailyBudget: 1, alertThreshold: 50, notificationsEnabled: false });
    // No budget row: the defaults (10.00 a month, 0.50 a day, 80%, notifications on) apply.
    const defaults = await account();
    const below = await account({ monthlyBudget: 10, dailyBudget: 10, alertThreshold: 80, notificationsEnabled: true });
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
    await handleEventBatch({ db, env: parseConsumerEnv(env), queue }, batch);

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
    expect(defaultMail.text).toContain("Your alert threshold is 80%. You will get at most one such e-mail per day.");

    const rows = await alertRows([monthly.id, daily.id, both.id, off.id, defaults.id, below.id]);
    expect(
      rows
        .map(
          (r) =>
            `${r.userId === both.id ? "both" : r.userId === monthly.id ? "monthly" : r.userId === daily.id ? "daily" : r.userId === defaults.id ? "defaults" : "other"}:${r.kind}`,
        )
        .sort(),
    ).toEqual(["both:daily", "both:monthly", "daily:daily", "defaults:daily", "monthly:monthly"]);
  });

  it("sends nothing twice: not for a retried batch, nor for more spend in the same period", async () => {
    const a = await account({ monthlyBudget: 1, dailyBudget: 1, alertThreshold: 50, notificationsEnabled: true });
    const b = await account({ monthlyBudget: 100, dailyBudget: 1, alertThreshold: 50, notificationsEnabled: true });
    const { queue, mails } = recordingQueue();
    const deps = { db, env: parseConsumerEnv(env), queue };
    const batch = usageBatch([
      { userId: a.id, costUsd: 0.6 },
      { userId: b.id, costUsd: 0.6 },
    ]);
    await handleEventBatch(deps, batch);
    expect(mails).toHaveLength(3);

    // The same messages again, as a redelivery brings them: nothing stored, nothing sent.
    const again = createMessageBatch(
      "modelify-events",
      batch.messages.map((m) => ({ id: m.id, timestamp: m.timestamp, attempts: 2, body: m.body })),
    );
    await handleEventBatch(deps, again);
    await handleEventBatch(
      deps,
      usageBatch([
        { userId: a.id, costUsd: 0.3 },
        { userId: b.id, costUsd: 0.3 },
      ]),
    );
    expect(mails).toHaveLength(3);
    expect(await alertRows([a.id, b.id])).toHaveLength(3);

    // A claim that exists is never sent again, even when checked without the batch's usage.
    await checkBudgetAlerts(db, queue, [a.id, b.id]);
    expect(mails).toHaveLength(3);
  });

  it("sends each alert once when two batches for the same users are handled at the same time", async () => {
    const users = await Promise.all(
      Array.from({ length: 4 }, () => account({ monthlyBudget: 1, dailyBudget: 1, alertThreshold: 50, notificationsEnabled: true })),
    );
    const { queue, mails } = recordingQueue();
    const deps = { db, env: parseConsumerEnv(env), queue };
    const spend = users.map((u) => ({ userId: u.id, costUsd: 0.6 }));
    await Promise.all([handleEventBatch(deps, usageBatch(spend)), handleEventBatch(deps, usageBatch(spend))]);
    for (const u of users) {
      expect(subjects(mails, u.email).sort()).toEqual([
        "Modelify budget alert: 120% of your daily budget used",
        "Modelify budget alert: 120% of your monthly budget used",
      ]);
    }
    expect(await alertRows(users.map((u) => u.id))).toHaveLength(8);
  });

  it("checks a batch of 100 users (more than one statement's bound parameters) and skips unknown ids", async () => {
    const users = await Promise.all(Array.from({ length: 100 }, () => account()));
    const { queue, mails } = recordingQueue();
    await handleEventBatch({ db, env: parseConsumerEnv(env), queue }, usageBatch(users.map((u) => ({ userId: u.id, costUsd: 0.5 }))));
    await checkBudgetAlerts(db, queue, [...users.map((u) => u.id), "no-such-user"]);
    expect(mails).toHaveLength(100);
    expect(new Set(mails.map((m) => m.to))).toEqual(new Set(users.map((u) => u.email)));
    expect(mails.every((m) => m.subject === "Modelify budget alert: 100% of your daily budget used")).toBe(true);
  });

  it("reads the whole batch's budgets and spend in one statement, and claims in one more", async () => {
    const users = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        account(i === 4 ? undefined : { monthlyBudget: 1, dailyBudget: 1, alertThreshold: 50, notificationsEnabled: i !== 3 }),
      ),
    );
    const ids = users.map((u) => u.id);
    // Usage stored without the consumer's own check, so the check below is the first to see it.
    const spend = (costUsd: number) =>
      writeUsage(
        db,
        ids.map((userId) => ({ userId, receivedAt: Date.now(), report: { ...report({ cost_usd: costUsd }), occurred_at: Date.now() } as UsageItem["report"] })),
        [],
      );
    const counted = requestDb(env.DB);
    const { queue, mails } = recordingQueue();
    await spend(0.1);
    expect((await metered(() => checkBudgetAlerts(counted, queue, ids))).statements).toBe(1);
    await spend(0.5);
    expect((await metered(() => checkBudgetAlerts(counted, queue, ids))).statements).toBe(2);
    expect(mails).toHaveLength(7);
    expect((await metered(() => checkBudgetAlerts(counted, queue, ids))).statements).toBe(1);
    expect(mails).toHaveLength(7);
  });

  it("e-mails the account's current address", async () => {
    const user = await account({ monthlyBudget: 1, dailyBudget: 100, alertThreshold: 50, notificationsEnabled: true });
    const changed = uniqueEmail("changed");
    await db.update(schema.users).set({ email: changed }).where(eq(schema.users.id, user.id));
    const { queue, mails } = recordingQueue();
    await handleEventBatch({ db, env: parseConsumerEnv(env), queue }, usageBatch([{ userId: user.id, costUsd: 0.5 }]));
    expect(mails.map((m) => m.to)).toEqual([changed]);
  });
});
