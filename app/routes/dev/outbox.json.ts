import type { Route } from "./+types/outbox.json";
import { listOutbox } from "~/lib/mail/outbox.server";
import { app } from "~/server/context.server";
import { queryParamKeepingPlus } from "~/server/requests.server";
import { getOnly } from "~/server/responses.server";
import { requireLocalMachine } from "~/server/local-only.server";

export const action = getOnly;

// Local development only: the e-mails and text messages the outbox adapters stored, optionally
// for one address or number (?to=+15551234567 works unencoded). 404 in production.
export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, db } = app(context);
  requireLocalMachine(request, env);
  const to = queryParamKeepingPlus(new URL(request.url), "to");
  return Response.json(await listOutbox(db, to), { headers: { "Cache-Control": "no-store" } });
}
