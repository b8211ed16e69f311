// A Worker for the local set-up only (scripts/local-usage-move.mjs bundles it and runs it on the
// set-up's Miniflare when an old local state still has usage from before the usage ledger; never
// built or deployed): the site Worker's UsageLedger class under the site Worker's name, and the
// move's own code (app/lib/usage/move.server.ts), so a developer's local history reaches the
// ledgers exactly as production's does with `npm run usage:move`.
import { getDb } from "~/lib/db.server";
import { type MoveResult, moveLegacyUsage } from "~/lib/usage/move.server";

export { UsageLedger } from "./usage-ledger";

type MoveEnv = { DB: D1Database; USAGE_LEDGER: DurableObjectNamespace };

export default {
  // POST: one step of the move; answers { moved, remaining }.
  async fetch(request: Request, env: MoveEnv): Promise<Response> {
    if (request.method !== "POST") return new Response(null, { status: 405 });
    return Response.json((await moveLegacyUsage(getDb(env.DB), env.USAGE_LEDGER)) satisfies MoveResult);
  },
};
