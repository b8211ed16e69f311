// GET /dashboard/usage/days.csv?from=&to=&…: a tidy CSV of each day and model of the range, for the signed-in account only.
import type { Route } from "./+types/days.csv";
import { requireUser } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { getOnly } from "~/server/responses.server";
import { daysCsv } from "~/lib/usage/tidy-csv.server";
import { csvResponse, csvView } from "./tidy-csv.server";

export const action = getOnly;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const now = Date.now();
  const asked = csvView(request, user, now);
  if (!asked.ok) return asked.response;
  return csvResponse(await daysCsv(app(context), user, asked.view, now), "days", asked.view);
}
