// GET /api/v1/usage/requests?from=&to=&model=&provider=&device=&request_type=&status=&limit=&cursor=:
// a page of the account's request log, newest first, over the reports its ledger still holds
// (issue 49). Keyset paging: `next_cursor` (opaque) continues just after the page's last row, so
// a page deep in the log costs what the first does. Read with a personal API key or the desktop
// app's token; one ledger call.
import type { Route } from "./+types/requests";
import { LEDGER } from "~/lib/constants";
import { ledgerFor } from "~/lib/usage/ledger/api";
import { earliestLogDay, encodeCursor, logQueryOf, logRowBody, parseQuery, requestsQuerySchema, resolveRange } from "~/lib/usage/read-api";
import { app } from "~/server/context.server";
import { requireReader } from "~/server/read-api.server";
import { getOnly, refuseOptions } from "~/server/responses.server";

const NO_STORE = { "Cache-Control": "no-store" };

export async function loader({ request, context }: Route.LoaderArgs) {
  refuseOptions(request);
  const ctx = app(context);
  const reader = await requireReader(request, ctx);
  const query = parseQuery(new URL(request.url).searchParams, requestsQuerySchema);
  if (!query.ok) return Response.json({ error: query.error, problems: query.problems }, { status: 400, headers: NO_STORE });
  const now = Date.now();
  const resolved = resolveRange(query.value, now, reader.zone, { maxDays: LEDGER.rawRetentionDays, earliest: earliestLogDay(now, reader.zone) });
  if (!resolved.ok) return Response.json({ error: resolved.error, problems: [] }, { status: 400, headers: NO_STORE });
  const { zone } = reader;
  const read = await ledgerFor(ctx.ledgers, reader.userId).read({ now, zone, log: logQueryOf(resolved.range, zone, query.value) });
  const page = read.log ?? { rows: [], next: null };
  return Response.json(
    {
      time_zone: zone,
      from: resolved.range.from,
      to: resolved.range.to,
      requests: page.rows.map((row) => logRowBody(row, zone)),
      next_cursor: page.next ? encodeCursor(page.next) : null,
    },
    { headers: NO_STORE },
  );
}

export const action = getOnly;
