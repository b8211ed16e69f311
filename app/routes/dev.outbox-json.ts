import type { Route } from "./+types/dev.outbox-json";
import { getCloudflare } from "~/lib/auth/request.server";
import { getDb } from "~/lib/db.server";
import { parseEnv } from "~/lib/env.server";
import { requireLocalMachine } from "~/server/local-only";
import { getOnly } from "~/lib/api.server";

export const action = getOnly;
import { listOutbox } from "~/lib/mail/outbox.server";

// Local development only: the messages the outbox mail adapter stored. 404 in production.
export async function loader({ request, context }: Route.LoaderArgs) {
  const { env } = getCloudflare(context);
  requireLocalMachine(request, parseEnv(env));
  const to = new URL(request.url).searchParams.get("to");
  return Response.json(await listOutbox(getDb(env.DB), to), { headers: { "Cache-Control": "no-store" } });
}
