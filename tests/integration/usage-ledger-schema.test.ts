// A ledger made with an earlier version of its schema is brought up to date on its next use,
// keeping every row and still storing each report id once.
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { LedgerStore } from "~/lib/usage/ledger/store";
import type { LedgerUsage } from "~/lib/usage/ledger/types";
import { LEDGER_MIGRATIONS } from "~/lib/usage/ledger/schema";
import { MEMBER_MIGRATION, SLICE_VALUES_MIGRATION } from "~/lib/usage/ledger/slices";
import { RANKING_MIGRATION } from "~/lib/usage/ledger/team-ranking";
import { columnNames, reports, secureReports } from "~/lib/usage/ledger/tables";

function usage(id: string, occurredAt: number): LedgerUsage {
  return {
    id,
    occurredAt,
    receivedAt: occurredAt,
    modelName: "gpt-4o",
    modelProvider: "openai",
    requestType: "chat",
    tokensUsed: 30,
    tokensInput: 20,
    tokensOutput: 10,
    costMicros: 1000,
    durationMs: 900,
    success: true,
    errorMessage: null,
    metadata: JSON.stringify({ conversation_id: "c-1" }),
    conversationId: "c-1",
    appVersion: "1.0.5",
    appInstanceId: "i-1",
    deviceId: null,
  };
}

/** Drops every table of the ledger (the schema's own, not the runtime's). */
function dropAllTables(sql: SqlStorage) {
  for (const { name } of sql
    .exec(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite%'`)
    .toArray()) {
    sql.exec(`DROP TABLE "${String(name)}"`);
  }
}

const MEMBER_VERSION = LEDGER_MIGRATIONS.indexOf(MEMBER_MIGRATION);

/** The CREATE statement of a table as a migration made it. */
function createOf(version: number, table: string): string {
  return LEDGER_MIGRATIONS[version]!.find((statement) => new RegExp(`^CREATE TABLE ${table} `).test(statement))!;
}

/**
 * Runs today's ingest on a ledger of an older version: the tables it also writes that came later
 * (`models`, version 3; `quarters`, `utc_days` and `hourly` keyed by its start, version 4; the slices, version 5; the
 * team rankings' ranges, which an ingest looks up) are made
 * for the call, and after it the hours go back into the older `hourly` (UTC day and hour) and the
 * later tables are dropped, so the ledger is left as that version had it.
 */
function asOlderVersion<T>(sql: SqlStorage, version: number, ingest: () => T): T {
  if (version < 3) sql.exec(createOf(2, "models"));
  sql.exec(createOf(3, "quarters"));
  sql.exec(createOf(3, "utc_days"));
  // The slices as today's ingest writes them (keyed by the member too, ADR 0038), their values, and the raw reports' member column.
  sql.exec(createOf(MEMBER_VERSION, "quarter_slices_by_member").replace("quarter_slices_by_member", "quarter_slices"));
  sql.exec(createOf(MEMBER_VERSION, "day_slices_by_member").replace("day_slices_by_member", "day_slices"));
  sql.exec(createOf(LEDGER_MIGRATIONS.indexOf(SLICE_VALUES_MIGRATION), "slice_values"));
  sql.exec(createOf(LEDGER_MIGRATIONS.indexOf(RANKING_MIGRATION), "member_ranges"));
  for (const table of ["reports", "secure_reports"]) sql.exec(`ALTER TABLE ${table} ADD COLUMN member_id TEXT NOT NULL DEFAULT ''`);
  sql.exec(`ALTER TABLE hourly RENAME TO hourly_older`);
  sql.exec(createOf(3, "hourly_by_start").replace("hourly_by_start", "hourly"));
  const result = ingest();
  sql.exec(`INSERT INTO hourly_older (date, hour, total_requests, total_tokens, total_cost_micros)
    SELECT date, hour, total_requests, total_tokens, total_cost_micros FROM hourly WHERE true
    ON CONFLICT (date, hour) DO UPDATE SET total_requests = total_requests + excluded.total_requests,
      total_tokens = total_tokens + excluded.total_tokens, total_cost_micros = total_cost_micros + excluded.total_cost_micros`);
  sql.exec(`DROP TABLE hourly`);
  sql.exec(`ALTER TABLE hourly_older RENAME TO hourly`);
  for (const table of ["quarters", "utc_days", "quarter_slices", "day_slices", "slice_values", "member_ranges", ...(version < 3 ? ["models"] : [])])
    sql.exec(`DROP TABLE ${table}`);
  for (const table of ["reports", "secure_reports"]) sql.exec(`ALTER TABLE ${table} DROP COLUMN member_id`);
  return result;
}

describe("usage ledger schema", () => {
  it("moves a version-1 ledger's raw reports into the rowid table with a unique id index, rows and dedupe intact", async () => {
    const stub = env.USAGE_LEDGER.get(env.USAGE_LEDGER.idFromName(`schema-${crypto.randomUUID()}`));
    const now = Date.now();
    const ids = Array.from({ length: 50 }, () => crypto.randomUUID());
    await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      // Back to version 1, as a ledger made before version 2 has it.
      dropAllTables(sql);
      for (const statement of LEDGER_MIGRATIONS[0]!) sql.exec(statement);
      sql.exec(`INSERT INTO meta (key, value) VALUES ('schema_version', '1')`);
      const v1 = new LedgerStore(sql, { upTo: 1 });
      expect(
        asOlderVersion(sql, 1, () =>
          v1.ingest(
            ids.map((id, i) => usage(id, now - i * 60_000)),
            [],
            null,
            now,
          ),
        ).stored,
      ).toBe(50);
      expect(sql.exec(`SELECT sql FROM sqlite_master WHERE name = 'reports'`).one().sql).toContain("WITHOUT ROWID");

      const v2 = new LedgerStore(sql);
      expect(sql.exec(`SELECT value FROM meta WHERE key = 'schema_version'`).one().value).toBe(String(LEDGER_MIGRATIONS.length));
      expect(sql.exec(`SELECT sql FROM sqlite_master WHERE name = 'reports'`).one().sql).not.toContain("WITHOUT ROWID");
      expect(
        sql
          .exec(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'reports' ORDER BY name`)
          .toArray()
          .map((r) => r.name),
      ).toEqual(["reports_failed", "reports_id", "reports_time"]);
      expect(v2.size().reports).toBe(50);
      // The same ids again are seen; a new one is stored; the aggregates count each once.
      const again = v2.ingest([...ids.slice(0, 10).map((id) => usage(id.toUpperCase(), now)), usage(crypto.randomUUID(), now)], [], null, now);
      expect({ stored: again.stored, duplicates: again.duplicates }).toEqual({ stored: 1, duplicates: 10 });
      expect(v2.size().reports).toBe(51);
      const requests = (v2.read({ now, dailyFrom: "0000-00-00" }).daily ?? []).reduce((s, r) => s + r.totalRequests, 0);
      expect(requests).toBe(51);
      expect(v2.read({ now, models: true }).models).toEqual([{ modelName: "gpt-4o", modelProvider: "openai" }]);
    });
  });

  it("lists a version-2 ledger's models from its daily rows, then keeps the list as reports arrive", async () => {
    const stub = env.USAGE_LEDGER.get(env.USAGE_LEDGER.idFromName(`schema-${crypto.randomUUID()}`));
    const now = Date.now();
    const day = 86_400_000;
    const report = (model: string, provider: string, at: number) => ({ ...usage(crypto.randomUUID(), at), modelName: model, modelProvider: provider });
    await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      dropAllTables(sql);
      const v2 = new LedgerStore(sql, { upTo: 2 });
      // Three models over two months of days, one of them on many days.
      const history = [
        ...Array.from({ length: 40 }, (_, i) => report("gpt-4o", "openai", now - i * day)),
        report("claude-sonnet-4", "anthropic", now - 50 * day),
        report("llama-3", "ollama", now - 3 * day),
      ];
      expect(asOlderVersion(sql, 2, () => v2.ingest(history, [], null, now)).stored).toBe(42);
      expect(sql.exec(`SELECT 1 FROM sqlite_master WHERE name = 'models'`).toArray()).toEqual([]);

      const v3 = new LedgerStore(sql);
      expect(sql.exec(`SELECT value FROM meta WHERE key = 'schema_version'`).one().value).toBe(String(LEDGER_MIGRATIONS.length));
      const models = () => (v3.read({ now, models: true }).models ?? []).map((m) => `${m.modelName}/${m.modelProvider}`).sort();
      expect(models()).toEqual(["claude-sonnet-4/anthropic", "gpt-4o/openai", "llama-3/ollama"]);
      // A new model (and one the same name from another provider) joins the list; a known one does not twice.
      v3.ingest([report("gemini-2.5-pro", "google", now), report("gpt-4o", "azure", now), report("gpt-4o", "openai", now)], [], null, now);
      expect(models()).toEqual(["claude-sonnet-4/anthropic", "gemini-2.5-pro/google", "gpt-4o/azure", "gpt-4o/openai", "llama-3/ollama"]);
      // The same as the daily rows say.
      const daily = new Set((v3.read({ now, dailyFrom: "0000-00-00" }).daily ?? []).map((r) => `${r.modelName}/${r.modelProvider}`));
      expect(models()).toEqual([...daily].sort());
    });
  });

  it("gives a version-3 ledger quarter hours from its raw reports, its archived days' figures at their 00:00 UTC, and the same days and hours", async () => {
    const stub = env.USAGE_LEDGER.get(env.USAGE_LEDGER.idFromName(`schema-${crypto.randomUUID()}`));
    const now = Date.parse("2026-11-20T12:00:00Z");
    const at = (iso: string, cost = 1000) => ({ ...usage(crypto.randomUUID(), Date.parse(iso)), costMicros: cost });
    const raw = [at("2026-11-19T18:10:00Z", 1000), at("2026-11-19T18:20:00Z", 2000), at("2026-11-19T18:29:59Z", 4000), at("2026-11-20T02:00:00Z", 8000)];
    // A day whose raw reports went to R2 (the archive deletes them; its aggregates stay).
    const archived = [at("2026-08-01T09:00:00Z", 16_000), at("2026-08-01T21:00:00Z", 32_000)];
    const secure = {
      reportHash: "hash-1",
      modelName: "gpt-4o",
      provider: "openai",
      tokensUsed: 500,
      costMicros: 64_000,
      requestCount: 5,
      successCount: 4,
      errorCount: 1,
      reportTimestamp: Date.parse("2026-11-19T18:14:00Z"),
      appVersion: null,
      appInstanceId: null,
      receivedAt: now,
    };
    await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      dropAllTables(sql);
      const v3 = new LedgerStore(sql, { upTo: 3 });
      expect(asOlderVersion(sql, 3, () => v3.ingest([...raw, ...archived], [secure], null, now, { importing: true })).stored).toBe(7);
      for (const r of archived) sql.exec(`DELETE FROM reports WHERE id = ?`, r.id);
      const before = {
        daily: sql.exec(`SELECT * FROM daily ORDER BY date`).toArray(),
        hourly: sql.exec(`SELECT * FROM hourly ORDER BY date, hour`).toArray(),
      };
      expect(before.hourly.map((h) => `${h.date} ${h.hour}`)).toEqual(["2026-08-01 9", "2026-08-01 21", "2026-11-19 18", "2026-11-20 2"]);

      const v4 = new LedgerStore(sql);
      expect(v4.zone).toBe("UTC");
      const quarters = sql.exec(`SELECT start, total_requests, total_cost_micros FROM quarters ORDER BY start`).toArray();
      expect(quarters.map((q) => [new Date(Number(q.start)).toISOString(), q.total_requests, q.total_cost_micros])).toEqual([
        ["2026-08-01T00:00:00.000Z", 2, 48_000],
        ["2026-11-19T18:00:00.000Z", 6, 65_000],
        ["2026-11-19T18:15:00.000Z", 2, 6000],
        ["2026-11-20T02:00:00.000Z", 1, 8000],
      ]);
      // The days and hours are as they were (UTC), the hours now keyed by where they start.
      expect(sql.exec(`SELECT * FROM daily ORDER BY date`).toArray()).toEqual(before.daily);
      expect(sql.exec(`SELECT start, date, hour, total_requests FROM hourly ORDER BY start`).toArray()).toEqual(
        before.hourly.map((h) => ({
          start: Date.parse(`${h.date}T${String(h.hour).padStart(2, "0")}:00:00Z`),
          date: h.date,
          hour: h.hour,
          total_requests: h.total_requests,
        })),
      );
      expect(sql.exec(`SELECT date, total_requests, total_cost_micros FROM utc_days ORDER BY date`).toArray()).toEqual([
        { date: "2026-08-01", total_requests: 2, total_cost_micros: 48_000 },
        { date: "2026-11-19", total_requests: 8, total_cost_micros: 71_000 },
        { date: "2026-11-20", total_requests: 1, total_cost_micros: 8000 },
      ]);

      // In Kathmandu (+5:45) the raw quarter hours split exactly at 18:15 UTC; the archived day is
      // where its 00:00 UTC quarter falls (05:45 local), the one approximation.
      expect(state.storage.transactionSync(() => v4.setZone("Asia/Kathmandu", now))).toBe(true);
      const days = (v4.read({ now, dateTotalsFrom: "0000-00-00" }).dateTotals ?? []).map((d) => [d.date, d.totalRequests, d.totalCostMicros]);
      expect(days).toEqual([
        ["2026-08-01", 2, 48_000],
        ["2026-11-19", 6, 65_000],
        ["2026-11-20", 3, 14_000],
      ]);
      const hours = (v4.read({ now, hourlyFrom: "2026-11-19" }).hourly ?? []).map((h) => [new Date(h.start).toISOString(), h.date, h.hour, h.totalRequests]);
      expect(hours).toEqual([
        ["2026-11-19T17:15:00.000Z", "2026-11-19", 23, 6],
        ["2026-11-19T18:15:00.000Z", "2026-11-20", 0, 2],
        ["2026-11-20T01:15:00.000Z", "2026-11-20", 7, 1],
      ]);
      // The cross-account rollup's UTC days do not move with the zone.
      expect(sql.exec(`SELECT count(*) AS n FROM utc_days`).one().n).toBe(3);
    });
  });

  it("has the raw-row columns the drizzle tables name (tables.ts), each of them", async () => {
    const stub = env.USAGE_LEDGER.get(env.USAGE_LEDGER.idFromName(`schema-${crypto.randomUUID()}`));
    // Any call brings a new ledger's schema up to date.
    await stub.read({ now: Date.now(), counts: true });
    await runInDurableObject(stub, (_instance, state) => {
      const columnsOf = (table: string) => [...state.storage.sql.exec<{ name: string }>(`SELECT name FROM pragma_table_info(?)`, table)].map((c) => c.name);
      expect(columnsOf("reports").sort()).toEqual(columnNames(reports).sort());
      expect(columnsOf("secure_reports").sort()).toEqual(columnNames(secureReports).sort());
    });
  });
});
