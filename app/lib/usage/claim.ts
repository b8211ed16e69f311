// What the desktop app may say of the call it claims (POST /api/v1/entitlements/claim, ADR 0032):
// its estimated cost, checked against the account's hard caps, and its model, for a model's cap.
// Every field is optional; any other field is refused, as the usage reports refuse them.
import { USAGE_API } from "../constants";
import { z } from "../zod";
import type { ClaimTarget } from "./caps";
import { MAX, toMicros } from "./report";

const name = (max: number) => z.string().trim().min(1).max(max);

export const claimBodySchema = z
  .object({
    estimated_cost_usd: z
      .number()
      .nonnegative()
      .max(USAGE_API.maxCostUsd)
      .optional()
      .meta({ description: "What the call is expected to cost: held against the account's hard caps until its report (with this claim's claim_id) arrives" }),
    model: name(MAX.modelName).optional().meta({ description: "The model the call is for (with provider): a cap of that model applies", example: "gpt-4o" }),
    provider: name(MAX.provider).optional().meta({ example: "openai" }),
  })
  .strict()
  .refine((b) => (b.model === undefined) === (b.provider === undefined), { message: "model and provider must be sent together", path: ["provider"] });

/** A claim's body (none reads as `{}`) as what the ledger decides on, with the device key that claims. */
export function claimTarget(body: z.output<typeof claimBodySchema>, deviceId: string | null): ClaimTarget {
  return {
    estimateMicros: toMicros(body.estimated_cost_usd ?? 0),
    model: body.model !== undefined && body.provider !== undefined ? { name: body.model, provider: body.provider } : null,
    deviceId,
  };
}
