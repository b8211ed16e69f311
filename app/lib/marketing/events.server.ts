// Recording marketing events and reading the funnel. The site enqueues events (so recording one
// never slows or breaks the request that caused it); the consumer writes them in one statement
// per batch. Work the consumer already does in a batch (an account created, a subscription
// stored) adds its event to that batch, so the milestone and its event commit together.
import { and, gte, inArray, sql } from "drizzle-orm";
import { MS } from "../constants";
import type { Db } from "../db.server";
import { chunks, schema } from "../db.server";
import { enqueue, type MarketingEventMessage } from "../queue";
import { firstUsageByWeek } from "../usage/rollup.server";
import { emptyFunnel, FUNNEL_STAGES, type FunnelWeek, type MarketingEventName } from "./events";
import { log } from "../log/log.server";

const table = schema.marketingEvents;

export type MarketingEvent = { name: MarketingEventName; userId?: string | null; path?: string | null; dedupeKey?: string | null; occurredAt?: number };

export function marketingEventMessage(event: MarketingEvent, now = Date.now()): MarketingEventMessage {
  return {
    type: "marketing.event",
    name: event.name,
    occurredAt: event.occurredAt ?? now,
    userId: event.userId ?? null,
    path: event.path ?? null,
    dedupeKey: event.dedupeKey ?? null,
  };
}

/** Enqueues events. Analytics never fails the request that caused them: a failure is logged. */
export async function recordMarketingEvents(queue: Queue, events: MarketingEvent[], now = Date.now()): Promise<void> {
  if (events.length === 0) return;
  try {
    await enqueue(
      queue,
      events.map((event) => marketingEventMessage(event, now)),
    );
  } catch (error) {
    log.error("marketing_events_not_queued", { names: events.map((e) => e.name) }, error);
  }
}

/** The dedupe key of a milestone that counts once per account. */
export const milestoneKey = (name: MarketingEventName, userId: string) => `${name}:${userId}`;

/** An insert for a consumer batch: a milestone's event, counted once per account. */
export function milestoneInsert(db: Db, name: MarketingEventName, userId: string, occurredAt: number) {
  return db
    .insert(table)
    .values({ name, userId, occurredAt, dedupeKey: milestoneKey(name, userId) })
    .onConflictDoNothing();
}

// D1 binds at most 100 parameters per statement; an event row binds 5.
const ROWS_PER_INSERT = 20;

/** Writes the queued events of one batch: one INSERT per 20 events, repeats of a dedupe key ignored. */
export async function writeMarketingEvents(db: Db, events: MarketingEventMessage[]): Promise<void> {
  if (events.length === 0) return;
  const rows = events.map((e) => ({ name: e.name, occurredAt: e.occurredAt, userId: e.userId, path: e.path, dedupeKey: e.dedupeKey }));
  const statements = chunks(rows, ROWS_PER_INSERT).map((group) => db.insert(table).values(group).onConflictDoNothing());
  await db.batch(statements as [(typeof statements)[number], ...typeof statements]);
}

/** The funnel of the last MARKETING.funnelWeeks weeks (Monday to Sunday, UTC), oldest first. */
export async function loadFunnel(db: Db, now = Date.now()): Promise<FunnelWeek[]> {
  const weeks = emptyFunnel(now);
  const since = weeks[0]!.weekStart;
  // Inlined, not bound: D1 binds JavaScript numbers as REAL, which would make this a real division.
  const DAY = sql.raw(String(MS.DAY));
  const day = sql<number>`(${table.occurredAt} / ${DAY})`;
  // Monday of the event's week, as weekStart() computes it (1970-01-01 was a Thursday).
  const week = sql<number>`((${day} - ((${day} + 3) % 7)) * ${DAY})`;
  const events = FUNNEL_STAGES.flatMap((s) => (s.event ? [s.event] : []));
  const [rows, firstUsage] = await Promise.all([
    db
      .select({ name: table.name, week, count: sql<number>`count(*)` })
      .from(table)
      .where(and(inArray(table.name, events), gte(table.occurredAt, since)))
      .groupBy(table.name, week),
    firstUsageByWeek(db, since, weeks.at(-1)!.weekStart + 7 * MS.DAY),
  ]);
  const byWeek = new Map(weeks.map((w) => [w.weekStart, w]));
  for (const row of rows) {
    const stage = FUNNEL_STAGES.find((s) => s.event === row.name);
    const target = byWeek.get(Number(row.week));
    if (stage && target) target[stage.key] = Number(row.count);
  }
  for (const [weekStart, n] of firstUsage) {
    const target = byWeek.get(weekStart);
    if (target) target.usedApp = n;
  }
  return weeks;
}
