// Realistic model usage for the local seed (the demo account's ledger) and the benchmarks: several providers and models,
// busier on weekdays and in working hours, some failures. Deterministic for a given seed.

// Prices in USD per 1K input / output tokens; durations in ms.
const MODELS = [
  { name: "gpt-4o", provider: "openai", in: 0.0025, out: 0.01, ms: 2200, ok: 0.985, weight: 8 },
  { name: "gpt-4o-mini", provider: "openai", in: 0.00015, out: 0.0006, ms: 900, ok: 0.99, weight: 10 },
  { name: "claude-sonnet-4", provider: "anthropic", in: 0.003, out: 0.015, ms: 2800, ok: 0.98, weight: 7 },
  { name: "claude-3-5-haiku", provider: "anthropic", in: 0.0008, out: 0.004, ms: 1100, ok: 0.99, weight: 4 },
  { name: "gemini-2.5-pro", provider: "google", in: 0.00125, out: 0.01, ms: 3100, ok: 0.97, weight: 4 },
  { name: "mistral-large", provider: "mistral", in: 0.002, out: 0.006, ms: 1900, ok: 0.96, weight: 2 },
  { name: "deepseek-coder", provider: "deepseek", in: 0.00014, out: 0.00028, ms: 1600, ok: 0.94, weight: 3 },
  { name: "o3-mini", provider: "openai", in: 0.0011, out: 0.0044, ms: 6500, ok: 0.97, weight: 2 },
];

function prng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function uuidFrom(random) {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16)).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

// How a desktop app's calls split by kind: mostly chat, some agent runs and plain completions.
const REQUEST_TYPES = [
  ["chat", 0.7],
  ["agent", 0.2],
  ["completion", 0.1],
];

/**
 * `count` usage rows for a user spread over the last `days` days (ending now), each from one of
 * `devices` (device key ids; none: no device). Request types and devices come from a stream of
 * their own, so the rest of a seed's figures are what they were before those existed.
 */
export function generateUsage({ userId, days = 30, count = 1200, now = Date.now(), seed = 42, devices = [] }) {
  const random = prng(seed);
  const other = prng(seed ^ 0x5bd1e995);
  const requestType = () => {
    let r = other();
    for (const [type, share] of REQUEST_TYPES) {
      r -= share;
      if (r <= 0) return type;
    }
    return REQUEST_TYPES[0][0];
  };
  const total = MODELS.reduce((s, m) => s + m.weight, 0);
  const pick = () => {
    let r = random() * total;
    for (const m of MODELS) {
      r -= m.weight;
      if (r <= 0) return m;
    }
    return MODELS[0];
  };
  const rows = [];
  const start = now - days * 86400_000;
  while (rows.length < count) {
    const t = start + random() * (now - start);
    const date = new Date(t);
    const weekday = date.getUTCDay() % 6 !== 0;
    const workHours = date.getUTCHours() >= 8 && date.getUTCHours() <= 19;
    if (random() > (weekday ? 1 : 0.4) * (workHours ? 1 : 0.3)) continue;
    const m = pick();
    const input = Math.round(200 + random() * 3000);
    const output = Math.round(100 + random() * 1500);
    const ok = random() < m.ok;
    rows.push({
      id: uuidFrom(random),
      user_id: userId,
      model_name: m.name,
      model_provider: m.provider,
      request_type: requestType(),
      device_id: devices.length > 0 ? devices[Math.floor(other() * devices.length)] : null,
      tokens_used: ok ? input + output : input,
      tokens_input: input,
      tokens_output: ok ? output : 0,
      cost_micros: Math.round(((input / 1000) * m.in + (ok ? (output / 1000) * m.out : 0)) * 1e6),
      request_duration_ms: Math.round(m.ms * (0.5 + random())),
      success: ok ? 1 : 0,
      error_message: ok ? null : "Rate limit exceeded (429)",
      metadata: JSON.stringify({ conversation_id: `conv-${Math.floor(random() * 60)}` }),
      conversation_id: null,
      app_version: "1.0.5",
      app_instance_id: "seed",
      occurred_at: Math.round(t),
      received_at: Math.round(t) + 200,
    });
  }
  for (const r of rows) r.conversation_id = JSON.parse(r.metadata).conversation_id;
  return rows;
}

/** The rows as a usage ledger stores them (LedgerUsage in app/lib/usage/ledger/types.ts): the
 * local seed (scripts/local-state.mjs) hands these to the demo account's ledger. */
export function ledgerUsage(rows) {
  return rows.map((r) => ({
    id: r.id,
    occurredAt: r.occurred_at,
    receivedAt: r.received_at,
    modelName: r.model_name,
    modelProvider: r.model_provider,
    requestType: r.request_type,
    tokensUsed: r.tokens_used,
    tokensInput: r.tokens_input,
    tokensOutput: r.tokens_output,
    costMicros: r.cost_micros,
    durationMs: r.request_duration_ms,
    success: r.success === 1,
    errorMessage: r.error_message,
    metadata: r.metadata,
    conversationId: r.conversation_id,
    appVersion: r.app_version,
    appInstanceId: r.app_instance_id,
    deviceId: r.device_id ?? null,
  }));
}

/**
 * The rows as the consumer's queue carries them (UsageItem in app/lib/usage/ingest.server.ts: the
 * report as the API accepted it), sent under `teamId`: the local seed hands these to the consumer's
 * own team ingest (app/lib/usage/team-ingest.server.ts).
 */
export function queuedUsage(rows, teamId) {
  return rows.map((r) => ({
    userId: r.user_id,
    receivedAt: r.received_at,
    teamId,
    report: {
      report_id: r.id,
      model_name: r.model_name,
      model_provider: r.model_provider,
      request_type: r.request_type,
      tokens_used: r.tokens_used,
      tokens_input: r.tokens_input,
      tokens_output: r.tokens_output,
      cost_usd: r.cost_micros / 1e6,
      request_duration_ms: r.request_duration_ms,
      success: r.success === 1,
      error_message: r.error_message,
      metadata: JSON.parse(r.metadata),
      app_version: r.app_version,
      app_instance_id: r.app_instance_id,
      occurred_at: r.occurred_at,
    },
  }));
}
