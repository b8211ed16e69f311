// The API's hand-written reader of usage reports against the zod rules it stands in for: it may
// hand any report to zod, but must never accept one zod refuses, nor return anything other than
// what zod returns.
import { describe, expect, it } from "vitest";
import { USAGE_API } from "../constants";
import { z } from "../zod";
import { usageBatchSchema, usageReportSchema } from "./report";
import { readUsageReport, usageReportReader } from "./report-reader";

const NOW = Date.parse("2026-11-22T12:00:00Z");
const UUID = "5b1c7f0e-3a9d-4e2b-8c41-0f6d2a9e7b13";

const base = {
  report_id: UUID,
  model_name: "gpt-4o",
  model_provider: "openai",
  request_type: "chat",
  tokens_used: 1500,
  tokens_input: 1000,
  tokens_output: 500,
  cost_usd: 0.0125,
  request_duration_ms: 1200,
  success: true,
  error_message: "rate limited",
  metadata: { conversation_id: "c-1" },
  app_version: "1.0.5",
  app_instance_id: "instance-1",
  occurred_at: NOW - 1000,
  claim_id: "0e6f3c2a-9b1d-4c7e-a5f8-2d4b6a8c0e13",
};

const text = (n: number) => "x".repeat(n);
const nullProto = Object.assign(Object.create(null), { conversation_id: "c" });
// Values every field is tried with: each type, and each bound of each rule, on either side.
const POOL: unknown[] = [
  undefined,
  null,
  true,
  false,
  0,
  -0,
  1,
  -1,
  1.5,
  1499,
  1500,
  1501,
  USAGE_API.maxTokens,
  USAGE_API.maxTokens + 1,
  USAGE_API.maxCostUsd,
  USAGE_API.maxCostUsd + 0.01,
  USAGE_API.maxDurationMs,
  USAGE_API.maxDurationMs + 1,
  NOW,
  2 ** 53,
  Number.MAX_SAFE_INTEGER,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  "",
  " ",
  "a",
  " a ",
  "12",
  ...[50, 51, 100, 101, 200, 201, 2000, 2001].map(text),
  ` ${text(200)} `,
  `\t${text(50)}\n`,
  UUID,
  UUID.toUpperCase(),
  "00000000-0000-0000-0000-000000000000",
  "ffffffff-ffff-ffff-ffff-ffffffffffff",
  "5b1c7f0e-3a9d-9e2b-8c41-0f6d2a9e7b13",
  "5b1c7f0e-3a9d-4e2b-cc41-0f6d2a9e7b13",
  `${UUID} `,
  [],
  [1],
  {},
  { conversation_id: 7, nested: { list: [1, "two", null] } },
  { [text(100)]: 1 },
  { [text(101)]: 1 },
  { blob: text(USAGE_API.maxMetadataBytes - 12) },
  { blob: text(USAGE_API.maxMetadataBytes - 11) },
  JSON.parse('{"__proto__": {"x": 1}, "a": 1}'),
  nullProto,
  new Date(NOW),
];

type Parse = { success: boolean; data?: unknown; error?: z.ZodError };
function sameOutcome(fast: Parse, rules: Parse) {
  expect(fast.success).toBe(rules.success);
  if (rules.success) expect(fast.data).toStrictEqual(rules.data);
  else expect(fast.error?.issues).toEqual(rules.error?.issues);
}

describe("reports the app sends, read by hand", () => {
  const rules = usageReportSchema(() => NOW);
  const schema = usageReportReader(() => NOW);
  const sent = { ...base, occurred_at: NOW - 1000 };
  const OCCURRED = [
    NOW + USAGE_API.maxFutureSkewMs,
    NOW + USAGE_API.maxFutureSkewMs + 1,
    NOW - USAGE_API.maxAgeDays * 86_400_000,
    NOW - USAGE_API.maxAgeDays * 86_400_000 - 1,
    "2026-11-22T11:00:00Z",
    "2026-11-22T11:00:00+02:00",
    "yesterday",
  ];

  it("reads what the app usually sends without zod, as zod reads it, defaults included", () => {
    const minimal = { report_id: UUID, model_name: " gpt-4o ", model_provider: "openai", cost_usd: 0.0004, request_duration_ms: 850, success: true };
    for (const report of [
      sent,
      minimal,
      { ...minimal, tokens_input: 900, tokens_output: 300 },
      { ...minimal, tokens_used: 7 },
      JSON.parse(JSON.stringify({ ...base, occurred_at: undefined })),
    ]) {
      const fast = readUsageReport(report, NOW);
      expect(fast).not.toBe(z.INVALID);
      expect(fast).toStrictEqual(rules.parse(report));
    }
  });

  it("never accepts a report zod refuses, nor returns anything else than zod, field by field", () => {
    let accepted = 0;
    let refused = 0;
    for (const key of [...Object.keys(sent), "extra"]) {
      for (const value of [...POOL, ...OCCURRED]) {
        const report: Record<string, unknown> = { ...sent, [key]: value };
        if (value === undefined) delete report[key];
        const fast = readUsageReport(report, NOW);
        const expected = rules.safeParse(report);
        if (fast !== z.INVALID) {
          accepted++;
          expect(expected.success, `${key} = ${String(value)}`).toBe(true);
          expect(fast).toStrictEqual(expected.data);
        }
        if (!expected.success) refused++;
        sameOutcome(schema.safeParse(report), expected);
      }
    }
    expect(accepted).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(400);
  });

  it("says the same problems for a batch, with each report's index", () => {
    const batch = { reports: [sent, { ...sent, tokens_input: -1 }, { ...sent, occurred_at: "yesterday" }] };
    sameOutcome(usageBatchSchema(schema).safeParse(batch), usageBatchSchema(rules).safeParse(batch));
    expect(usageBatchSchema(schema).safeParse({ reports: [sent, sent] }).success).toBe(true);
  });
});
