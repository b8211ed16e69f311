// Pure per-model figures and recommendations, computed from aggregates (no I/O, no React).
export type ModelCategory = "text" | "image" | "code" | "analysis";

export type ModelStats = {
  modelName: string;
  modelProvider: string;
  requests: number;
  successCount: number;
  tokens: number;
  costMicros: number;
  durationMs: number;
  timedRequests: number;
  lastUsedAt: number;
};

export type ModelFigures = ModelStats & {
  category: ModelCategory;
  successRate: number; // percent
  avgResponseMs: number | null;
  avgCostUsd: number; // per request
  costPer1kTokensUsd: number | null;
};

const IMAGE = /(dall-?e|stable-?diffusion|sdxl|flux|midjourney|imagen|image)/i;
const CODE = /(code|coder|codestral|devstral|starcoder|copilot)/i;
const ANALYSIS = /(^o\d|[-_]o\d|reason|r1\b|thinking|analy[sz])/i;

/** Which filter a model belongs to (spec: Text & Chat, Image Gen, Code, Analysis). */
export function categoryOf(modelName: string): ModelCategory {
  if (IMAGE.test(modelName)) return "image";
  if (CODE.test(modelName)) return "code";
  if (ANALYSIS.test(modelName)) return "analysis";
  return "text";
}

export function figures(stats: ModelStats): ModelFigures {
  return {
    ...stats,
    category: categoryOf(stats.modelName),
    successRate: stats.requests ? (stats.successCount / stats.requests) * 100 : 0,
    avgResponseMs: stats.timedRequests ? stats.durationMs / stats.timedRequests : null,
    avgCostUsd: stats.requests ? stats.costMicros / 1e6 / stats.requests : 0,
    costPer1kTokensUsd: stats.tokens ? stats.costMicros / 1e6 / (stats.tokens / 1000) : null,
  };
}

// The Model Analytics filter (spec: All Models, Text & Chat, Image Gen, Code, Analysis).
export const CATEGORIES = { all: "All Models", text: "Text & Chat", image: "Image Gen", code: "Code", analysis: "Analysis" } as const;
export type CategoryFilter = keyof typeof CATEGORIES;

export const SORTS = {
  usage: "Usage Count",
  performance: "Performance",
  cost: "Cost Efficiency",
  speed: "Response Time",
} as const;
export type SortKey = keyof typeof SORTS;

export function sortModels(models: ModelFigures[], sort: SortKey): ModelFigures[] {
  const copy = [...models];
  const nullsLast = (v: number | null) => (v === null ? Number.POSITIVE_INFINITY : v);
  switch (sort) {
    case "usage":
      return copy.sort((a, b) => b.requests - a.requests);
    case "performance":
      return copy.sort((a, b) => b.successRate - a.successRate || nullsLast(a.avgResponseMs) - nullsLast(b.avgResponseMs));
    case "cost":
      return copy.sort((a, b) => nullsLast(a.costPer1kTokensUsd) - nullsLast(b.costPer1kTokensUsd));
    case "speed":
      return copy.sort((a, b) => nullsLast(a.avgResponseMs) - nullsLast(b.avgResponseMs));
  }
}

export type Recommendation = {
  id: string;
  title: string;
  description: string;
  type: "cost-saving" | "new-model" | "optimization" | "performance";
  priority: "high" | "medium" | "low";
  estimatedSavings?: number; // USD per month at the current volume
};

const MIN_REQUESTS = 5; // below this a model's figures say too little

/**
 * Recommendations from the user's own figures: a cheaper model with a similar success rate,
 * a model that fails often, a slow one with a faster alternative, or trying more models.
 */
export function recommend(models: ModelFigures[], days: number): Recommendation[] {
  const out: Recommendation[] = [];
  const solid = models.filter((m) => m.requests >= MIN_REQUESTS && m.costPer1kTokensUsd !== null);
  for (const expensive of solid) {
    const cheaper = solid
      .filter(
        (m) =>
          m !== expensive &&
          m.category === expensive.category &&
          m.costPer1kTokensUsd! < expensive.costPer1kTokensUsd! * 0.7 &&
          m.successRate >= expensive.successRate - 5,
      )
      .sort((a, b) => a.costPer1kTokensUsd! - b.costPer1kTokensUsd!)[0];
    if (!cheaper) continue;
    const perTokenSaving = expensive.costPer1kTokensUsd! - cheaper.costPer1kTokensUsd!;
    const monthly = (perTokenSaving * (expensive.tokens / 1000) * 30) / Math.max(days, 1);
    out.push({
      id: `cheaper-${expensive.modelName}`,
      title: `Try ${cheaper.modelName} instead of ${expensive.modelName}`,
      description: `${cheaper.modelName} cost ${Math.round((1 - cheaper.costPer1kTokensUsd! / expensive.costPer1kTokensUsd!) * 100)}% less per 1K tokens for you, with a ${cheaper.successRate.toFixed(0)}% success rate (vs ${expensive.successRate.toFixed(0)}%).`,
      type: "cost-saving",
      priority: monthly >= 1 ? "high" : "medium",
      estimatedSavings: Math.round(monthly * 100) / 100,
    });
  }
  for (const m of models.filter((m) => m.requests >= MIN_REQUESTS && m.successRate < 90)) {
    out.push({
      id: `failing-${m.modelName}`,
      title: `${m.modelName} fails ${(100 - m.successRate).toFixed(0)}% of requests`,
      description: `Check your ${m.modelProvider} API key, quota and rate limits in the desktop app, or switch to a more reliable model for this work.`,
      type: "optimization",
      priority: m.successRate < 75 ? "high" : "medium",
    });
  }
  const timed = models.filter((m) => m.requests >= MIN_REQUESTS && m.avgResponseMs !== null);
  const fastest = [...timed].sort((a, b) => a.avgResponseMs! - b.avgResponseMs!)[0];
  for (const m of timed) {
    if (fastest && m !== fastest && m.avgResponseMs! > 2 * fastest.avgResponseMs! && m.avgResponseMs! > 3000) {
      out.push({
        id: `slow-${m.modelName}`,
        title: `${m.modelName} is slow for you`,
        description: `It averages ${(m.avgResponseMs! / 1000).toFixed(1)} s per response; ${fastest.modelName} averages ${(fastest.avgResponseMs! / 1000).toFixed(1)} s. Use it for quick questions.`,
        type: "performance",
        priority: "low",
      });
    }
  }
  if (models.length > 0 && models.length < 3) {
    out.push({
      id: "explore",
      title: "Compare more models",
      description: "You have used fewer than 3 models. Run the same prompt on another provider's model to find the best value for your work.",
      type: "new-model",
      priority: "low",
    });
  }
  // The two biggest savings are worth reading; five variations of one idea are not.
  const savings = out.filter((r) => r.type === "cost-saving").sort((a, b) => (b.estimatedSavings ?? 0) - (a.estimatedSavings ?? 0));
  const kept = [...savings.slice(0, 2), ...out.filter((r) => r.type !== "cost-saving")];
  const order = { high: 0, medium: 1, low: 2 };
  return kept.sort((a, b) => order[a.priority] - order[b.priority]).slice(0, 6);
}
