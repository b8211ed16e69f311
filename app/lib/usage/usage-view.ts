// The usage tab's choices, read from the URL (?metric=, ?engagement=, ?view=) so every state is a
// link and works without JavaScript.
export const METRICS = { spend: "Spend", tokens: "Tokens", requests: "Requests" } as const;
export const ENGAGEMENT = { activity: "User Activity", services: "Service Usage", hours: "Peak Hours" } as const;
export const USAGE_VIEWS = { user: "User Info", services: "Services", keys: "API Keys" } as const;

export type UsageUi = { metric: keyof typeof METRICS; engagement: keyof typeof ENGAGEMENT; view: keyof typeof USAGE_VIEWS };

/** One of the option keys, or the fallback for anything else (spec: unknown values fall back). */
export function pick<T extends Record<string, unknown>>(options: T, value: string | null, fallback: keyof T & string): keyof T & string {
  return value !== null && Object.hasOwn(options, value) ? value : fallback;
}

export function parseUsageUi(params: URLSearchParams): UsageUi {
  return {
    metric: pick(METRICS, params.get("metric"), "spend"),
    engagement: pick(ENGAGEMENT, params.get("engagement"), "activity"),
    view: pick(USAGE_VIEWS, params.get("view"), "user"),
  };
}
