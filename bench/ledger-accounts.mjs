// The usage ledger bench's accounts, sizes and reports (bench/ledger.mjs): who fills, sends and
// watches what, how much of it, and the reports a desktop app sends.

export const REPETITIONS = Number(process.env.BENCH_REPETITIONS ?? 3);
export const PASSWORD = "Bench-Pass-2026";
export const INGEST_CALL = 5_000; // LEDGER.maxReportsPerIngest
export const LARGE = { id: "bench-ledger-large", email: "bench-ledger-1m@modelify.dev", rows: Number(process.env.BENCH_LEDGER_ROWS ?? 1_000_000) };
export const SMALL = { id: "bench-ledger-small", email: "bench-ledger-100@modelify.dev", rows: 100 };
// Within the 100 days raw reports stay in the ledger, and long enough for the 90-day range the
// request log and analytics are timed over (issue 49).
export const USAGE_DAYS = 90;
// The desktop apps the bench accounts report from: the request log and the slices by device.
export const DEVICES = ["bench-macbook", "bench-windows-pc", "bench-linux-box", "bench-laptop"];
// Every bench account lives in a +5:45 zone (issue 48): its days and hours are drawn from quarter
// hours, none of which an hour or a day of UTC lines up with.
export const ACCOUNT_ZONE = "Asia/Kathmandu";
// Figure 1: requests per page and account in each repetition, the four alternating.
export const PAGE_REQUESTS = Number(process.env.BENCH_LEDGER_PAGE_REQUESTS ?? 40);
export const PAGES = [
  { key: "overview", path: "/dashboard", label: "overview `/dashboard`" },
  { key: "usage", path: "/dashboard/usage", label: "usage tab `/dashboard/usage`" },
];
// Figure 1 also times issue 49's views: the request log's first page and a page 10,000 rows deep
// (reached by following its "next" links, as a reader would; the 100-row account has only a first
// page, which is its side), and the usage tab over a custom 90-day range grouped by model (the
// bench accounts are free: the analytics tab would show them its upgrade card).
const localDay = (ms) => new Intl.DateTimeFormat("en-CA", { timeZone: ACCOUNT_ZONE }).format(ms);
const LOG_PATH = "/dashboard/usage/requests";
const LOG_DEEP_ROWS = 10_000;
// The log over the last 90 days, so the 100-report account's pages are full pages of 50 rows too
// (its last 7 days, the log's default, hold about 8): the same page on both sides.
const LOG_RANGE = `${LOG_PATH}?from=${localDay(Date.now() - 89 * 86_400_000)}&to=${localDay(Date.now())}`;
export const SIZED_PAGES = [
  ...PAGES,
  { key: "log", path: LOG_RANGE, label: "request log over 90 days, first page `/dashboard/usage/requests`" },
  {
    key: "logDeep",
    path: LOG_RANGE,
    deepRows: LOG_DEEP_ROWS,
    label: `request log over 90 days, a page ${LOG_DEEP_ROWS.toLocaleString("en-US")} rows deep (the 100-report account: its last page)`,
  },
  {
    key: "range90",
    path: `/dashboard/usage?from=${localDay(Date.now() - 89 * 86_400_000)}&to=${localDay(Date.now())}&group_by=model`,
    label: "usage tab, a custom 90-day range grouped by model",
  },
];
// Figure 2: five accounts, each sending MIX_REQUESTS requests of 100 reports in a repetition.
export const MIXERS = Array.from({ length: 5 }, (_, i) => ({ id: `bench-ledger-mixer-${i}`, email: `bench-ledger-mixer-${i}@modelify.dev` }));
export const MIX_REQUESTS = Number(process.env.BENCH_LEDGER_MIX_REQUESTS ?? 60);
// The same without the API and the local queue: the consumer's handler, batches of 100 from 5 other accounts.
export const HANDLER_MIX = Array.from({ length: 5 }, (_, i) => ({ id: `bench-ledger-handler-${i}`, email: `bench-ledger-handler-${i}@modelify.dev` }));
export const HANDLER_BATCHES = 100;
// Figure 3: twenty other accounts ingest flat out (one request of 100 reports in flight each) in
// loaded slices that alternate with idle ones, so both sides meet the same machine.
export const INGESTERS = Array.from({ length: 20 }, (_, i) => ({
  id: `bench-ledger-ingester-${String(i).padStart(2, "0")}`,
  email: `bench-ledger-ingest-${i}@modelify.dev`,
}));
export const LOAD_SLICES = 3;
// Watched in turn with the two pages: a route that touches no storage at all, so a slowdown that is
// the one runtime thread's (every Worker, object and database of the local runtime shares it) shows
// there too.
export const CONTROL = { key: "health", path: "/api/v1/health", label: "control `GET /api/v1/health` (no storage)" };
export const WATCHED = [...PAGES, CONTROL];
export const SLICE_MS = Number(process.env.BENCH_LEDGER_SLICE_SECONDS ?? 5) * 1000;
export const DRAIN_TIMEOUT_MS = 180_000;

const MODELS = [
  ["gpt-4o-mini", "openai", 900, 300, 0.0004],
  ["claude-sonnet-4", "anthropic", 1800, 700, 0.0159],
  ["gemini-2.5-pro", "google", 1200, 400, 0.0055],
];
/** A request's worth of reports, as a desktop app sends them. */
export function reports(n = 100) {
  return Array.from({ length: n }, (_, i) => {
    const [model_name, model_provider, tokens_input, tokens_output, cost_usd] = MODELS[i % MODELS.length];
    return {
      report_id: crypto.randomUUID(),
      model_name,
      model_provider,
      tokens_used: tokens_input + tokens_output,
      tokens_input,
      tokens_output,
      cost_usd,
      request_duration_ms: 850,
      success: true,
      metadata: { conversation_id: `bench-${i % 7}` },
    };
  });
}

export const LARGE_LOGIN = { email: LARGE.email, password: PASSWORD };
export const SMALL_LOGIN = { email: SMALL.email, password: PASSWORD };
