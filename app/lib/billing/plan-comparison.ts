// Free against Pro, as the pricing section and the FAQ say it. The free plan's numbers are the
// ones its limits are enforced with (FREE_TIER: the ledger's claims in usage/ledger/store.ts, the
// windows in usage/windows.ts), so no page can promise a limit the product does not hold. Every
// plan but free has none (windows.ts: `unlimited` is any plan but free).
import { FREE_TIER, PLAN } from "../constants";
import { SITE_FORMATS } from "../format";

/** The plan's price as every page and mail writes it ("$4.99"). */
export const PLAN_PRICE = SITE_FORMATS.usd(PLAN.priceUsd);

/** A cell: a figure, or whether the plan includes the row's feature. */
export type PlanCell = string | boolean;
export type ComparisonRow = { feature: string; free: PlanCell; pro: PlanCell };

const UNLIMITED = "Unlimited";

/** The free plan's limits, each with the window it counts in. */
const FREE_LIMIT_ROWS: ComparisonRow[] = [
  { feature: "Requests a minute", free: SITE_FORMATS.integer(FREE_TIER.perMinute), pro: UNLIMITED },
  { feature: "Requests an hour", free: SITE_FORMATS.integer(FREE_TIER.perHour), pro: UNLIMITED },
  { feature: "Requests a day", free: SITE_FORMATS.integer(FREE_TIER.perDay), pro: UNLIMITED },
  { feature: "Requests a month", free: SITE_FORMATS.integer(FREE_TIER.requestsPerMonth), pro: UNLIMITED },
  { feature: "Tokens a month", free: SITE_FORMATS.integer(FREE_TIER.tokensPerMonth), pro: UNLIMITED },
];

export const PLAN_COMPARISON: ComparisonRow[] = [
  { feature: "Price", free: "$0", pro: `${PLAN_PRICE} a month` },
  ...FREE_LIMIT_ROWS,
  { feature: "Usage dashboard and budget alerts", free: true, pro: true },
  { feature: "Desktop app downloads", free: false, pro: true },
  { feature: "Model Analytics", free: false, pro: true },
  { feature: "Support", free: "Basic", pro: "Premium" },
];

/** The free plan's rate limits in one line: "3 requests a minute, 20 an hour and 100 a day". */
export const FREE_RATE_LIMITS = `${SITE_FORMATS.integer(FREE_TIER.perMinute)} requests a minute, ${SITE_FORMATS.integer(FREE_TIER.perHour)} an hour and ${SITE_FORMATS.integer(FREE_TIER.perDay)} a day`;

/** The free plan's monthly allowance in one line. */
export const FREE_MONTHLY_LIMITS = `${SITE_FORMATS.integer(FREE_TIER.requestsPerMonth)} requests and ${SITE_FORMATS.integer(FREE_TIER.tokensPerMonth)} tokens a month`;

/** When a limit counts and starts again (windows.ts: calendar windows in UTC). */
export const LIMIT_WINDOWS_NOTE =
  "A request is one model call from the desktop app. Each limit counts the current calendar minute, hour, day or month (UTC) and starts again from zero when it ends.";
