// GET /api/v1/usage/summary?from=&to=&group_by=: the account's usage over a range of its zone's
// days (both ends inclusive; the current month by default), summed per model, provider, device,
// request type or day, with totals that are the sum of the groups (issue 49). Read with a
// personal API key or the desktop app's token; one ledger call.
import type { Route } from "./+types/summary";
import { READ_API } from "~/lib/constants";
import { ledgerFor } from "~/lib/usage/ledger/api";
import { parseQuery, resolveRange, sliceQueryOf, summaryBody, summaryQuerySchema } from "~/lib/usage/read-api";
import { app } from "~/server/context.server";
import { requireReader } from "~/server/read-api.server";
import { getOnly, refuseOptions } from "~/server/responses.server";

const NO_STORE = { "Cache-Control": "no-store" };

export async function loader({ request, context }: Route.LoaderArgs) {
  refuseOptions(request);
  const ctx = app(context);
  const reader = await requireReader(request, ctx);
  const query = parseQuery(new URL(request.url).searchParams, summaryQuerySchema);
  if (!query.ok) return Response.json({ error: query.error, problems: query.problems }, { status: 400, headers: NO_STORE });
  const now = Date.now();
  const resolved = resolveRange(query.value, now, reader.zone, { maxDays: READ_API.maxSummaryDays });
  if (!resolved.ok) return Response.json({ error: resolved.error, problems: [] }, { status: 400, headers: NO_STORE });
  const read = await ledgerFor(ctx.ledgers, reader.userId).read({ now, zone: reader.zone, slices: [sliceQueryOf(resolved.range, query.value.group_by)] });
  return Response.json(summaryBody(read.slices?.[0] ?? [], resolved.range, query.value.group_by, reader.zone), { headers: NO_STORE });
}

export const action = getOnly;
