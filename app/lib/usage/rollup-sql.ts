// The statements that write the cross-account usage figures to D1 (ADR 0020), for `rows` rows
// each. No imports: the consumer's writeShared and the local seed's Worker (workers/local-seed.ts,
// bundled small) write the same rows the same way.

/** Rows of (user_id, date, requests, tokens, cost_micros, version): absolute day totals, newest version wins. */
export function usageRollupUpsert(rows: number): string {
  return `INSERT INTO usage_rollup (user_id, date, requests, tokens, cost_micros, version) VALUES ${Array(rows).fill("(?, ?, ?, ?, ?, ?)").join(", ")}
    ON CONFLICT (user_id, date) DO UPDATE SET requests = excluded.requests, tokens = excluded.tokens, cost_micros = excluded.cost_micros,
      version = excluded.version WHERE excluded.version >= usage_rollup.version`;
}

/** Rows of (user_id, first_report_at, last_report_at): times only move outward. */
export function usageAccountsUpsert(rows: number): string {
  return `INSERT INTO usage_accounts (user_id, first_report_at, last_report_at) VALUES ${Array(rows).fill("(?, ?, ?)").join(", ")}
    ON CONFLICT (user_id) DO UPDATE SET first_report_at = min(first_report_at, excluded.first_report_at),
      last_report_at = max(last_report_at, excluded.last_report_at)`;
}
