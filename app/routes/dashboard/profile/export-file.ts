// GET /dashboard/profile/export/:id: a ready export's JSON file, for the signed-in owner only,
// until its link expires. Anything else (another account's id, an expired or unknown export) is 404.
import type { Route } from "./+types/export-file";
import { exportFile } from "~/lib/account/export.server";
import { EXPORT_MESSAGES } from "~/lib/account/messages";
import { SESSION_MESSAGES } from "~/lib/profile/messages";
import { getAuth } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { jsonError } from "~/server/responses.server";

const NO_STORE = { "Cache-Control": "private, no-store" };

export async function loader({ params, context }: Route.LoaderArgs) {
  const { user } = getAuth(context);
  if (!user) return jsonError(401, SESSION_MESSAGES.signInRequired, NO_STORE);
  if (!/^[0-9a-f-]{36}$/.test(params.id)) return jsonError(404, EXPORT_MESSAGES.notFound, NO_STORE);
  return (await exportFile(app(context), user.id, params.id)) ?? jsonError(404, EXPORT_MESSAGES.notFound, NO_STORE);
}
