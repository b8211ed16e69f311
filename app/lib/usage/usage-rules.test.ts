import { describe, expect, it } from "vitest";
import { budgetBand, budgetRemainder, DEFAULT_BUDGET, usedPercent } from "./budget";
import { budgetFormSchema } from "./budget-form";
import { categoryOf, figures, recommend, sortModels, type ModelStats } from "./models";
import { MS, USAGE_API } from "../constants";
import { formatsFor, SITE_FORMATS } from "../format";
import { problemsFrom, secureReportSchema, toMicros, usageReportSchema } from "./report";

const stats = (over: Partial<ModelStats>): ModelStats => ({
  modelName: "m",
  modelProvider: "p",
  requests: 10,
  successCount: 10,
  tokens: 10_000,
  costMicros: 100_000,
  durationMs: 10_000,
  timedRequests: 10,
  lastUsedAt: 0,
  ...over,
});

describe("budget rules", () => {
  it("has the spec's defaults", () => {
    expect(DEFAULT_BUDGET).toEqual({ monthlyBudget: 10, dailyBudget: 0.5, alertThresholds: [80], notificationsEnabled: true });
  });
  it("colours below 60% green, 60 to under 80 orange, 80 to under 100 yellow, 100+ red", () => {
    expect([0, 59.9, 60, 79.9, 80, 99.9, 100, 250].map(budgetBand)).toEqual(["green", "green", "orange", "orange", "yellow", "yellow", "red", "red"]);
    expect(usedPercent(5, 10)).toBe(50);
    expect(usedPercent(1, 0)).toBe(100);
  });
  it("says what is left of a budget in whole cents, the same on the overview and the budget tab", () => {
    expect(budgetRemainder(5, 4.5, SITE_FORMATS)).toBe("$0.50 remaining");
    expect(budgetRemainder(5, 5, SITE_FORMATS)).toBe("$0.00 remaining");
    expect(budgetRemainder(5, 5.04, SITE_FORMATS)).toBe("$0.04 over budget");
    expect(budgetRemainder(5, 5.001, SITE_FORMATS)).toBe("$0.00 remaining");
    expect(budgetRemainder(0, 1, SITE_FORMATS)).toBe("Set a budget to track it");
    // In the page's locale: a German visitor reads the same cents the German way.
    expect(budgetRemainder(5, 5.04, formatsFor("de-DE", "UTC"))).toBe("0,04\u00a0$ over budget");
  });

  it("turns non-numeric budgets into 0 and a non-numeric threshold into 80; refuses out-of-range values", () => {
    // An empty number field (what a browser sends for non-numeric input) gets the spec's default.
    expect(budgetFormSchema.parse({ monthlyBudget: "", dailyBudget: " ", alertThreshold: "", notificationsEnabled: "on" })).toEqual({
      monthlyBudget: 0,
      dailyBudget: 0,
      alertThresholds: [80],
      notificationsEnabled: true,
      monthlyHardCap: false,
      dailyHardCap: false,
    });
    // Text that JavaScript would still read as a number is refused, not reinterpreted.
    for (const text of ["0x10", "Infinity", "-Infinity", "1e3", "NaN", "x", "12,50", "+5", "1_000"]) {
      expect(budgetFormSchema.safeParse({ monthlyBudget: text, dailyBudget: "1", alertThreshold: "80" }).success, text).toBe(false);
    }
    expect(budgetFormSchema.safeParse({ monthlyBudget: "1", alertThreshold: "80" }).success).toBe(false); // daily missing
    for (const text of ["0x50", "8e1", "80.0", "Infinity"]) {
      expect(budgetFormSchema.safeParse({ monthlyBudget: "1", dailyBudget: "1", alertThreshold: text }).success, text).toBe(false);
    }
    // Issue 49: a list of 1 to 5 distinct whole percents from 1 to 200, in any order.
    const thresholds = (text: string) => budgetFormSchema.safeParse({ monthlyBudget: "1", dailyBudget: "1", alertThreshold: text });
    expect(thresholds("45").data?.alertThresholds).toEqual([45]);
    expect(thresholds("100, 50 ,80").data?.alertThresholds).toEqual([50, 80, 100]);
    expect(thresholds("82%, 150").data?.alertThresholds).toEqual([82, 150]);
    for (const text of ["0", "201", "-5", "50, 50", "10, 20, 30, 40, 50, 60", "50,,80", "50, x"]) {
      expect(thresholds(text).success, text).toBe(false);
    }
    expect(thresholds("50, 50").error?.issues.map((i) => [i.path, i.message])).toEqual([[["alertThreshold"], "Each alert threshold may appear only once"]]);
    expect(budgetFormSchema.safeParse({ monthlyBudget: "1.001", dailyBudget: "1", alertThreshold: "80" }).success).toBe(false); // step 0.01
    expect(budgetFormSchema.parse({ monthlyBudget: "12.34", dailyBudget: "0.5", alertThreshold: "95" }).notificationsEnabled).toBe(false);
  });

  it("refuses a daily budget above the monthly one, beside the daily field; 0 is no budget", () => {
    const over = budgetFormSchema.safeParse({ monthlyBudget: "5", dailyBudget: "5.01", alertThreshold: "80" });
    expect(over.success).toBe(false);
    expect(over.error?.issues.map((i) => [i.path, i.message])).toEqual([[["dailyBudget"], "The daily budget cannot be more than the monthly budget ($5.00)"]]);
    expect(budgetFormSchema.safeParse({ monthlyBudget: "5", dailyBudget: "5", alertThreshold: "80" }).success).toBe(true);
    // No monthly budget: a daily one alone is a choice, not a contradiction.
    expect(budgetFormSchema.safeParse({ monthlyBudget: "0", dailyBudget: "3", alertThreshold: "80" }).success).toBe(true);
    expect(budgetFormSchema.safeParse({ monthlyBudget: "", dailyBudget: "3", alertThreshold: "80" }).success).toBe(true);
    // A field refused on its own is the one message: no comparison with a value that is not one.
    const bad = budgetFormSchema.safeParse({ monthlyBudget: "-1", dailyBudget: "3", alertThreshold: "80" });
    expect(bad.error?.issues.map((i) => i.path)).toEqual([["monthlyBudget"]]);
  });
});

describe("usage report validation", () => {
  const now = Date.parse("2026-11-21T12:00:00Z");
  const schema = usageReportSchema(() => now);
  const valid = {
    report_id: "3b241101-e2bb-4255-8caf-4136c566a962",
    model_name: "gpt-4o",
    model_provider: "openai",
    tokens_used: 10,
    cost_usd: 0.001,
    request_duration_ms: 5,
    success: true,
  };
  it("fills defaults and normalises occurred_at", () => {
    const r = schema.parse({ ...valid, occurred_at: "2026-11-21T11:00:00Z" });
    expect(r).toMatchObject({ request_type: "chat", tokens_input: 0, tokens_output: 0, occurred_at: now - 3600_000 });
  });
  it("refuses unknown fields, negative numbers, non-integers and bad ids", () => {
    for (const bad of [{ user_id: "x" }, { tokens_used: -1 }, { tokens_used: 1.5 }, { report_id: "abc" }, { cost_usd: 20_000 }, { success: "yes" }]) {
      expect(schema.safeParse({ ...valid, ...bad }).success).toBe(false);
    }
  });
  it("takes tokens_used as the total: at least input + output, and input + output when omitted", () => {
    expect(schema.parse({ ...valid, tokens_used: 1600, tokens_input: 1000, tokens_output: 500 }).tokens_used).toBe(1600);
    const { tokens_used: _omitted, ...withoutTotal } = valid;
    expect(schema.parse({ ...withoutTotal, tokens_input: 1000, tokens_output: 500 }).tokens_used).toBe(1500);
    const short = schema.safeParse({ ...valid, tokens_used: 1499, tokens_input: 1000, tokens_output: 500 });
    expect(short.success).toBe(false);
    expect(problemsFrom(short.error!, false)).toEqual([
      { index: null, path: "tokens_used", message: "tokens_used must be at least tokens_input + tokens_output" },
    ]);
  });
  it("refuses a time outside the window (90 days back, 5 minutes ahead) and names the field that holds it", () => {
    const future = schema.safeParse({ ...valid, occurred_at: now + USAGE_API.maxFutureSkewMs + 1000 });
    expect(problemsFrom(future.error!, false)).toEqual([{ index: null, path: "occurred_at", message: "occurred_at is more than 5 minutes in the future" }]);
    expect(schema.safeParse({ ...valid, occurred_at: now + USAGE_API.maxFutureSkewMs }).success).toBe(true);
    const secure = {
      report_hash: "abcdef0123456789abcdef",
      model_name: "gpt-4o",
      provider: "openai",
      tokens_used: 10,
      cost: 0.01,
      request_count: 2,
      success_count: 2,
      error_count: 0,
    };
    const old = secureReportSchema(() => now).safeParse({ ...secure, report_timestamp: now - 91 * MS.DAY });
    expect(problemsFrom(old.error!, false)).toEqual([{ index: null, path: "report_timestamp", message: "report_timestamp is older than 90 days" }]);
    const ahead = secureReportSchema(() => now).safeParse({ ...secure, report_timestamp: new Date(now + 3600_000).toISOString() });
    expect(problemsFrom(ahead.error!, false)[0]?.message).toBe("report_timestamp is more than 5 minutes in the future");
  });
  it("reports problems with the report's index", () => {
    const error = usageReportSchema()
      .array()
      .safeParse([valid, { ...valid, tokens_used: -1 }]).error!;
    expect(problemsFrom(error, true)).toEqual([{ index: 1, path: "tokens_used", message: expect.any(String) }]);
  });
  it("stores money as integer micro-dollars", () => {
    expect(toMicros(0.0125)).toBe(12_500);
    expect(toMicros(0.1 + 0.2)).toBe(300_000);
  });
});

describe("model figures", () => {
  it("sorts models by the four orders", () => {
    const a = figures(stats({ modelName: "a", requests: 5, successCount: 5, durationMs: 5_000, timedRequests: 5, costMicros: 500_000 }));
    const b = figures(stats({ modelName: "b", requests: 50, successCount: 40, durationMs: 50_000 * 3, timedRequests: 50, costMicros: 10_000 }));
    const c = figures(stats({ modelName: "c", requests: 20, successCount: 19, durationMs: 20_000 * 2, timedRequests: 20, costMicros: 200_000 }));
    const names = (list: (typeof a)[]) => list.map((m) => m.modelName);
    expect(names(sortModels([a, b, c], "usage"))).toEqual(["b", "c", "a"]);
    expect(names(sortModels([a, b, c], "performance"))).toEqual(["a", "c", "b"]);
    expect(names(sortModels([a, b, c], "cost"))).toEqual(["b", "c", "a"]);
    expect(names(sortModels([a, b, c], "speed"))).toEqual(["a", "c", "b"]);
  });
  it("puts models in the spec's categories", () => {
    expect(["gpt-4o", "dall-e-3", "deepseek-coder", "o3-mini", "claude-sonnet-4"].map(categoryOf)).toEqual(["text", "image", "code", "analysis", "text"]);
  });
  it("recommends a cheaper model only when its success rate is similar", () => {
    const pricey = figures(stats({ modelName: "pricey", costMicros: 1_000_000, requests: 100, successCount: 99, tokens: 100_000 }));
    const cheapGood = figures(stats({ modelName: "cheap-good", costMicros: 100_000, requests: 100, successCount: 97, tokens: 100_000 }));
    const cheapBad = figures(stats({ modelName: "cheap-bad", costMicros: 10_000, requests: 100, successCount: 80, tokens: 100_000 }));
    const recs = recommend([pricey, cheapGood, cheapBad], 30);
    expect(recs.find((r) => r.type === "cost-saving")?.title).toBe("Try cheap-good instead of pricey");
    expect(recs.some((r) => r.title === "Try cheap-bad instead of pricey")).toBe(false);
    expect(recs.find((r) => r.type === "optimization")?.title).toBe("cheap-bad fails 20% of requests");
    expect(recommend([], 30)).toEqual([]);
  });
});
