// GET /dashboard/usage/models.csv?from=&to=&…: a tidy CSV of each model of the range, for the signed-in account only.
import type { Route } from "./+types/models.csv";
import { requireUser } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { getOnly } from "~/server/responses.server";
import { modelsCsv } from "~/lib/usage/tidy-csv.server";
import { csvResponse, csvView } from "./tidy-csv.server";

export const action = getOnly;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const now = Date.now();
  const asked = csvView(request, user, now);
  if (!asked.ok) return asked.response;
  return csvResponse(await modelsCsv(app(context), user, asked.view, now), "models", asked.view);
}
