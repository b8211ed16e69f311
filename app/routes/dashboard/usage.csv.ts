// GET /dashboard/usage.csv: the spec's usage export (last 30 days) for the signed-in user.
import type { Route } from "./+types/usage.csv";
import { requireUser } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { getOnly } from "~/server/responses.server";
import { usageCsv } from "~/lib/usage/analytics.server";
import { dayKey } from "~/lib/usage/dates";

export const action = getOnly;

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const now = Date.now();
  const body = await usageCsv(app(context), user, now);
  // Named by the account's own day, as the file's days are.
  const date = dayKey(now, user.profile.timeZone);
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="modelify-usage-${date}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
