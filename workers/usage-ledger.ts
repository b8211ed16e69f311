// The usage ledger of one account: a SQLite-backed Durable Object named by the account's id
// (ADR 0020). The logic is in app/lib/usage/ledger/store.ts; this class gives it storage, runs each
// write in one transaction, moves old raw rows to R2 and pushes new totals to open usage tabs.
import { DurableObject } from "cloudflare:workers";
import { LEDGER, LIVE_USAGE, MS } from "~/lib/constants";
import { isTimeZone } from "~/lib/time-zone";
import type { BudgetSettings } from "~/lib/usage/budget";
import { type ArchiveResult, archiveKey, type UsageLedgerApi } from "~/lib/usage/ledger/api";
import { archivedLogPage, fallbackDetail, usageDetail } from "~/lib/usage/ledger/log";
import { LedgerStore } from "~/lib/usage/ledger/store";
import type { TeamDetailQuery, TeamQuery } from "~/lib/usage/ledger/team-reads";
import type { ClaimInput, HealthRule, LedgerQuery, LedgerSecure, LedgerUsage, LogQuery, SentAlert } from "~/lib/usage/ledger/types";

type LedgerEnv = { BUCKET: R2Bucket };

/** What a live socket carries through hibernation: its session and when it must end unless renewed. */
type LiveSocket = { sessionId: string; expiresAt: number; openedAt: number };

// Close codes the usage tab reads as "open a new socket" (its session is checked again then).
const CLOSE = {
  sessionEnded: { code: 4001, reason: "session ended" },
  renew: { code: 4002, reason: "renew" },
  replaced: { code: 4003, reason: "too many live tabs" },
  // Not "open a new socket": the member's access to the team ended.
  memberRemoved: { code: 4004, reason: "no longer a member" },
} as const;
const sessionTag = (sessionId: string) => `session:${sessionId}`;
// A team's ledger (ADR 0038) tags each socket with its member too: a removal ends them (endMember).
const memberTag = (memberId: string) => `member:${memberId}`;

export class UsageLedger extends DurableObject<LedgerEnv> implements UsageLedgerApi {
  private opened: LedgerStore | null = null;

  // Opened on first use (its tables are made then), so an erased ledger stays empty until used again.
  private get store(): LedgerStore {
    this.opened ??= new LedgerStore(this.ctx.storage.sql);
    return this.opened;
  }

  async ingest(input: {
    usage: LedgerUsage[];
    secure: LedgerSecure[];
    budget: BudgetSettings | null;
    now: number;
    importing?: boolean;
    zone?: string;
    claimIds?: string[];
    rules?: HealthRule[];
  }) {
    if (input.usage.length + input.secure.length > LEDGER.maxReportsPerIngest) throw new RangeError("too many reports in one ingest call");
    const result = this.ctx.storage.transactionSync(() =>
      this.store.ingest(input.usage, input.secure, input.budget, input.now, {
        importing: input.importing === true,
        zone: input.zone,
        claimIds: input.claimIds,
        rules: input.rules,
      }),
    );
    if (result.stored > 0) this.push({ type: "usage", version: result.version });
    return result;
  }

  async importAlerts(alerts: SentAlert[]) {
    return this.ctx.storage.transactionSync(() => this.store.importAlerts(alerts));
  }

  async read(query: LedgerQuery) {
    if (query.zone !== undefined && query.zone !== this.store.zone && isTimeZone(query.zone)) await this.setZone(query.zone, query.now);
    return this.store.read(query);
  }

  async setZone(zone: string, now: number) {
    const redrawn = this.ctx.storage.transactionSync(() => this.store.setZone(zone, now));
    // Open usage tabs read their figures again, in the new zone.
    if (redrawn) this.push({ type: "usage", zone });
    return redrawn;
  }

  async claim(input: ClaimInput) {
    return this.ctx.storage.transactionSync(() => this.store.claim(input));
  }

  async releaseClaims(claimIds: string[]) {
    return this.ctx.storage.transactionSync(() => this.store.releaseClaims(claimIds));
  }

  async size() {
    return { ...this.store.size(), archivedMonths: this.store.archivedMonths() };
  }

  // The account's id comes with the call: the object knows only its name's hash.
  async archive(now: number, owner: string): Promise<ArchiveResult> {
    const cutoff = now - LEDGER.rawRetentionDays * MS.DAY;
    let budget: number = LEDGER.archiveRowsPerRun;
    const months: string[] = [];
    let rows = 0;
    for (const month of this.store.monthsBefore(cutoff)) {
      if (budget <= 0) break;
      const fresh = this.store.rawRows(month, cutoff, budget);
      if (fresh.length === 0) continue;
      const key = archiveKey(owner, month);
      // A month already archived in part (a row arrived late, or an earlier run stopped at its
      // budget) is read back and merged, so the object always holds every archived row once.
      const earlier = await readArchive(this.env.BUCKET, key);
      const byKey = new Map<string, Record<string, unknown>>();
      for (const row of [...earlier, ...fresh]) byKey.set(rowKey(row), row);
      await writeArchive(this.env.BUCKET, key, [...byKey.values()]);
      // Deleted only once R2 has them: a failure before this line leaves the rows in place, and the
      // next run writes the same object again.
      this.ctx.storage.transactionSync(() =>
        this.store.dropArchived(
          month,
          fresh.filter((r) => r.kind === "usage").map((r) => String(r.id)),
          fresh.filter((r) => r.kind === "secure").map((r) => String(r.report_hash)),
          byKey.size,
          now,
        ),
      );
      months.push(month);
      rows += fresh.length;
      budget -= fresh.length;
    }
    return { months, rows, remaining: this.store.monthsBefore(cutoff).length };
  }

  async rawReports(month: string, owner: string) {
    const archived = this.store.archivedMonths().some((m) => m.month === month) ? await readArchive(this.env.BUCKET, archiveKey(owner, month)) : [];
    const byKey = new Map<string, Record<string, unknown>>();
    for (const row of [...archived, ...this.store.rawRows(month)]) byKey.set(rowKey(row), row);
    return [...byKey.values()];
  }

  /** A page of an archived month's request log: its R2 object read back, filtered and ordered like the ledger's. */
  async archivedLog(month: string, owner: string, query: LogQuery) {
    if (!this.isArchived(month)) return { rows: [], next: null };
    return archivedLogPage(await readArchive(this.env.BUCKET, archiveKey(owner, month)), query);
  }

  async archivedReport(month: string, owner: string, id: string) {
    if (!this.isArchived(month)) return null;
    const rows = await readArchive(this.env.BUCKET, archiveKey(owner, month));
    const fallback = id.startsWith("fallback:") ? id.slice("fallback:".length) : null;
    const row = rows.find((r) => (fallback === null ? r.kind === "usage" && r.id === id.toLowerCase() : r.kind === "secure" && r.report_hash === fallback));
    if (!row) return null;
    return row.kind === "usage" ? usageDetail(row) : fallbackDetail(row);
  }

  private isArchived(month: string) {
    return this.store.archivedMonths().some((m) => m.month === month);
  }

  /** Every raw report the account has, archived months included (the data export), oldest month first. */
  async exportReports(owner: string) {
    const months = new Set([...this.store.monthsBefore(Number.MAX_SAFE_INTEGER), ...this.store.archivedMonths().map((m) => m.month)]);
    const reports: Array<Record<string, unknown>> = [];
    for (const month of [...months].sort()) reports.push(...(await this.rawReports(month, owner)));
    return reports;
  }

  async endLive(sessions: { only: string[] } | { except: string | null }) {
    const ending =
      "only" in sessions
        ? sessions.only.flatMap((id) => this.ctx.getWebSockets(sessionTag(id)))
        : this.ctx.getWebSockets().filter((ws) => liveOf(ws)?.sessionId !== sessions.except);
    for (const ws of ending) closeQuietly(ws, CLOSE.sessionEnded);
    return ending.length;
  }

  async readTeam(query: TeamQuery) {
    // A write too, once per range: its members' ranking is made on its first read.
    return this.ctx.storage.transactionSync(() => this.store.readTeam(query));
  }

  async readTeamDetail(query: TeamDetailQuery) {
    return this.store.readTeamDetail(query);
  }

  async endMember(memberId: string) {
    const ending = this.ctx.getWebSockets(memberTag(memberId));
    for (const ws of ending) closeQuietly(ws, CLOSE.memberRemoved);
    return ending.length;
  }

  /** Deletes everything the ledger holds (the account is being deleted) and closes its open usage tabs. */
  async erase() {
    for (const ws of this.ctx.getWebSockets()) closeQuietly(ws, { code: 1000, reason: "account deleted" });
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    this.opened = null;
  }

  // Live totals for the usage tab: a WebSocket per open tab, accepted with the hibernation API
  // so an idle tab costs nothing; the site's route checked the session before forwarding and
  // names it, with its access token's end. Each socket is tagged with its session, so ending the
  // session ends it (endLive); it also ends with the token, and the tab opens a new one, whose
  // upgrade checks the session again. An account holds at most LIVE_USAGE.maxSocketsPerAccount.
  async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") return new Response("Expected a WebSocket", { status: 426 });
    const sessionId = request.headers.get("X-Session-Id") ?? "";
    const expiresAt = Number(request.headers.get("X-Session-Expires"));
    const now = Date.now();
    if (!sessionId || !Number.isFinite(expiresAt) || expiresAt <= now) return new Response("A live socket needs a live session", { status: 400 });
    // In a team's ledger the limit is each member's, not the whole team's.
    const memberId = request.headers.get("X-Member-Id");
    // A socket closed a moment ago may still be listed until its close completes.
    const open = this.ctx
      .getWebSockets(memberId ? memberTag(memberId) : undefined)
      .filter((ws) => ws.readyState === WebSocket.OPEN)
      .map((ws) => ({ ws, live: liveOf(ws) }))
      .sort((a, b) => (a.live?.openedAt ?? 0) - (b.live?.openedAt ?? 0));
    for (const { ws } of open.slice(0, Math.max(0, open.length - LIVE_USAGE.maxSocketsPerAccount + 1))) closeQuietly(ws, CLOSE.replaced);
    const pair = new WebSocketPair();
    this.ctx.acceptWebSocket(pair[1], memberId ? [sessionTag(sessionId), memberTag(memberId)] : [sessionTag(sessionId)]);
    pair[1].serializeAttachment({ sessionId, expiresAt, openedAt: now } satisfies LiveSocket);
    const alarm = await this.ctx.storage.getAlarm();
    if (alarm === null || alarm > expiresAt) await this.ctx.storage.setAlarm(expiresAt);
    return new Response(null, { status: 101, webSocket: pair[0] });
  }

  // Sockets whose access token has run out close (the tab renews with a new socket); the next
  // alarm waits for the earliest left.
  async alarm() {
    const now = Date.now();
    let next: number | null = null;
    for (const ws of this.ctx.getWebSockets()) {
      const live = liveOf(ws);
      if (!live || live.expiresAt <= now) closeQuietly(ws, CLOSE.renew);
      else next = Math.min(next ?? live.expiresAt, live.expiresAt);
    }
    if (next !== null) await this.ctx.storage.setAlarm(next);
  }

  async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer) {
    // The page's only message is a ping to keep proxies from closing an idle socket.
    if (message === "ping") ws.send("pong");
  }

  async webSocketClose(ws: WebSocket, code: number) {
    try {
      ws.close(code === 1005 ? 1000 : code, "closed");
    } catch {
      // Already closed.
    }
  }

  private push(message: unknown) {
    const text = JSON.stringify(message);
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.send(text);
      } catch {
        // A socket closing as we send: it is gone at the next push.
      }
    }
  }
}

function liveOf(ws: WebSocket): LiveSocket | null {
  return (ws.deserializeAttachment() as LiveSocket | null) ?? null;
}

function closeQuietly(ws: WebSocket, { code, reason }: { code: number; reason: string }) {
  try {
    ws.close(code, reason);
  } catch {
    // Already closed.
  }
}

function rowKey(row: Record<string, unknown>): string {
  return row.kind === "secure" ? `s:${String(row.report_hash)}` : `u:${String(row.id)}`;
}

async function readArchive(bucket: R2Bucket, key: string): Promise<Array<Record<string, unknown>>> {
  const object = await bucket.get(key);
  if (!object) return [];
  const text = await new Response(object.body.pipeThrough(new DecompressionStream("gzip"))).text();
  return text
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function writeArchive(bucket: R2Bucket, key: string, rows: Array<Record<string, unknown>>) {
  const text = `${rows.map((r) => JSON.stringify(r)).join("\n")}\n`;
  const gz = await new Response(new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer();
  await bucket.put(key, gz, { httpMetadata: { contentType: "application/x-ndjson", contentEncoding: "gzip" }, customMetadata: { rows: String(rows.length) } });
}
