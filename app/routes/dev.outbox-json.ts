import type { Route } from "./+types/dev.outbox-json";
import { listOutbox } from "~/lib/mail/outbox.server";
import { app } from "~/server/context";
import { getOnly } from "~/server/http";
import { requireLocalMachine } from "~/server/local-only";

export const action = getOnly;

// Local development only: the messages the outbox mail adapter stored. 404 in production.
export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, db } = app(context);
  requireLocalMachine(request, env);
  const to = new URL(request.url).searchParams.get("to");
  return Response.json(await listOutbox(db, to), { headers: { "Cache-Control": "no-store" } });
}
