// A Worker for the ledger bench (bench/ledger.mjs) that reaches the usage ledgers of a local state
// before the site is served on it: bundled with the app's own UsageLedger class and run on
// Miniflare under the site Worker's name ("modelify"), so the objects it writes are the ones the
// served Worker opens (same namespace key, same files under <state>/v3/do/modelify-UsageLedger).
//   POST /ingest?user=<id>  {usage: LedgerUsage[], now, zone}  one ledger call: UsageLedger.ingest
//   POST /team-ingest       {teamId, usage: UsageItem[], now}  the consumer's team ingest (teamParts,
//                                                         ingestTeams) of reports its queue carried, each
//                                                         sent under the team by a member
//   GET  /size?user=<id>                                  the ledger's row counts and object id (its file's name;
//                                                         a team's ledger: user=team:<teamId>)
//   POST /consume           {batches: body[][]}           each batch handed to the built consumer Worker's
//                                                         queue handler (binding CONSUMER), one after another,
//                                                         as the local queue hands them over
import { ledgerFor } from "~/lib/usage/ledger/api";
import { ingestTeams, teamParts } from "~/lib/usage/team-ingest.server";

export { UsageLedger } from "../workers/usage-ledger";

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === "/consume" && request.method === "POST") return consume(env, await request.json());
    if (url.pathname === "/team-ingest" && request.method === "POST") return teamIngest(env, await request.json());
    const user = url.searchParams.get("user");
    const ledger = ledgerFor(env.USAGE_LEDGER, user);
    if (url.pathname === "/size") return Response.json({ ...(await ledger.size()), id: env.USAGE_LEDGER.idFromName(user).toString() });
    if (url.pathname === "/ingest" && request.method === "POST") {
      const { usage, now, zone } = await request.json();
      const started = performance.now();
      const result = await ledger.ingest({ usage, secure: [], budget: null, now, zone });
      return Response.json({ stored: result.stored, duplicates: result.duplicates, expired: result.expired, ms: performance.now() - started });
    }
    return new Response("Not found", { status: 404 });
  },
};

/** The consumer's queue handler on each batch in turn; the clock runs inside workerd. */
async function consume(env, { batches }) {
  let acked = 0;
  const started = performance.now();
  for (const bodies of batches) {
    const messages = bodies.map((body) => ({ id: crypto.randomUUID(), timestamp: new Date(), body, attempts: 1 }));
    const result = await env.CONSUMER.queue("modelify-events", messages);
    if (result.outcome !== "ok" || result.retryBatch.retry) return Response.json({ error: `a batch ended ${result.outcome}` }, { status: 500 });
    acked += result.ackAll ? messages.length : result.explicitAcks.length;
  }
  return Response.json({ acked, ms: performance.now() - started });
}

/**
 * Reports into a team's ledger the consumer's way (app/lib/usage/team-ingest.server.ts): every
 * sender counted as a member of the team, one ledger call per LEDGER.maxReportsPerIngest reports.
 */
async function teamIngest(env, { teamId, usage, now }) {
  const facts = new Map(usage.map((item) => [item.userId, { teams: [teamId] }]));
  const carried = usage.map((item) => ({ message: { id: item.report.report_id }, item }));
  const retry = new Set();
  const started = performance.now();
  await ingestTeams(env.USAGE_LEDGER, teamParts(carried, [], facts), now, retry);
  if (retry.size) return Response.json({ error: `${retry.size} team reports were not stored` }, { status: 500 });
  return Response.json({ ms: performance.now() - started });
}
