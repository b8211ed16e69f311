// The alerts tab's forms (issue 49): a model health rule, a webhook, and the removal of either.
import { HEALTH_ALERTS } from "../constants";
import { z } from "../zod";
import { checkWebhookUrl } from "./webhook-url";

const WHOLE = /^\d{1,9}$/;

export const ruleFormSchema = z
  .object({
    kind: z.enum(["error_rate", "latency"], { error: "Choose what the rule watches" }),
    threshold: z.preprocess(
      (v) => (typeof v === "string" && WHOLE.test(v.trim()) ? Number(v.trim()) : Number.NaN),
      z.number({ error: "Enter a whole number, such as 25" }),
    ),
  })
  .superRefine((rule, ctx) => {
    const [min, max, unit] =
      rule.kind === "error_rate"
        ? [HEALTH_ALERTS.errorRateMinPercent, HEALTH_ALERTS.errorRateMaxPercent, "%"]
        : [HEALTH_ALERTS.latencyMinMs, HEALTH_ALERTS.latencyMaxMs, " ms"];
    if (rule.threshold < min || rule.threshold > max) {
      ctx.addIssue({ code: "custom", path: ["threshold"], message: `Enter a value from ${min}${unit} to ${max}${unit}` });
    }
  });

export const webhookFormSchema = z.object({
  url: z
    .string({ error: "Enter the webhook's address" })
    .trim()
    .min(1, "Enter the webhook's address")
    .transform((url, ctx) => {
      const check = checkWebhookUrl(url);
      if (check.ok) return check.url;
      ctx.addIssue({ code: "custom", message: check.message });
      return z.NEVER;
    }),
});

export const removeFormSchema = z.object({ id: z.uuid({ error: "Unknown item" }) });
