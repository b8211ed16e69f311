// A ledger made with an earlier version of its schema is brought up to date on its next use,
// keeping every row and still storing each report id once.
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { LedgerStore } from "~/lib/usage/ledger/store";
import type { LedgerUsage } from "~/lib/usage/ledger/types";
import { LEDGER_MIGRATIONS } from "~/lib/usage/ledger/schema";
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

describe("usage ledger schema", () => {
  it("moves a version-1 ledger's raw reports into the rowid table with a unique id index, rows and dedupe intact", async () => {
    const stub = env.USAGE_LEDGER.get(env.USAGE_LEDGER.idFromName(`schema-${crypto.randomUUID()}`));
    const now = Date.now();
    const ids = Array.from({ length: 50 }, () => crypto.randomUUID());
    await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      // Back to version 1, as a ledger made before version 2 has it.
      for (const { name } of sql
        .exec(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite%'`)
        .toArray()) {
        sql.exec(`DROP TABLE "${String(name)}"`);
      }
      for (const statement of LEDGER_MIGRATIONS[0]!) sql.exec(statement);
      sql.exec(`INSERT INTO meta (key, value) VALUES ('schema_version', '1')`);
      const v1 = new LedgerStore(sql, { upTo: 1 });
      expect(
        v1.ingest(
          ids.map((id, i) => usage(id, now - i * 60_000)),
          [],
          null,
          now,
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
      ).toEqual(["reports_id", "reports_time"]);
      expect(v2.size().reports).toBe(50);
      // The same ids again are seen; a new one is stored; the aggregates count each once.
      const again = v2.ingest([...ids.slice(0, 10).map((id) => usage(id.toUpperCase(), now)), usage(crypto.randomUUID(), now)], [], null, now);
      expect({ stored: again.stored, duplicates: again.duplicates }).toEqual({ stored: 1, duplicates: 10 });
      expect(v2.size().reports).toBe(51);
      const requests = (v2.read({ now, dailyFrom: "0000-00-00" }).daily ?? []).reduce((s, r) => s + r.totalRequests, 0);
      expect(requests).toBe(51);
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
