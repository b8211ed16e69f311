// What an alert webhook receives (ADR 0033, docs/api/webhooks.md): one JSON event per alert, the
// same on every attempt. The schema is the contract: the consumer parses every queued event with
// it before signing and sending, and docs describe the same fields.
import type { BudgetAlert, HealthAlert } from "../usage/ledger/types";
import { z } from "../zod";

const envelope = {
  /** The delivery's id: the same on every attempt, so a receiver can drop a repeat. */
  id: z.uuid(),
  created_at: z.iso.datetime(),
  /** The account's time zone, in which `period` is drawn. */
  time_zone: z.string().min(1).max(64),
};

const budgetEventSchema = z.object({
  ...envelope,
  type: z.literal("budget.threshold_crossed"),
  data: z.object({
    budget: z.enum(["monthly", "daily"]),
    /** 'YYYY-MM' or 'YYYY-MM-DD' of the account's zone. */
    period: z.string().regex(/^\d{4}-\d{2}(-\d{2})?$/),
    threshold_percent: z.number().int().positive(),
    limit_usd: z.number().nonnegative(),
    spent_usd: z.number().nonnegative(),
    used_percent: z.number().int().nonnegative(),
  }),
});

const healthEventSchema = z.object({
  ...envelope,
  type: z.enum(["model.error_rate", "model.latency"]),
  data: z.object({
    rule_id: z.string().min(1).max(64),
    model: z.string().min(1).max(200),
    provider: z.string().min(1).max(200),
    /** Percent (error rate) or milliseconds (latency). */
    threshold: z.number().nonnegative(),
    value: z.number().nonnegative(),
    /** Requests in the hour (timed ones for latency). */
    requests: z.number().int().nonnegative(),
    window_start: z.iso.datetime(),
    window_end: z.iso.datetime(),
  }),
});

export const alertEventSchema = z.union([budgetEventSchema, healthEventSchema]);
export type AlertEvent = z.infer<typeof alertEventSchema>;

const iso = (ms: number) => new Date(ms).toISOString();
const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

export function budgetEvent(id: string, a: BudgetAlert): AlertEvent {
  return {
    id,
    type: "budget.threshold_crossed",
    created_at: iso(a.at),
    time_zone: a.zone,
    data: {
      budget: a.kind,
      period: a.period,
      threshold_percent: a.threshold,
      limit_usd: a.limit,
      spent_usd: round(a.spent, 6),
      used_percent: Math.round((a.spent / a.limit) * 100),
    },
  };
}

export function healthEvent(id: string, a: HealthAlert): AlertEvent {
  return {
    id,
    type: a.kind === "error_rate" ? "model.error_rate" : "model.latency",
    created_at: iso(a.at),
    time_zone: a.zone,
    data: {
      rule_id: a.ruleId,
      model: a.modelName,
      provider: a.modelProvider,
      threshold: a.threshold,
      value: round(a.value, a.kind === "error_rate" ? 1 : 0),
      requests: a.requests,
      window_start: iso(a.windowStart),
      window_end: iso(a.windowEnd),
    },
  };
}
