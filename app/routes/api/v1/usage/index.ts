// POST /api/v1/usage through React Router. workers/app.ts answers the exact path before the
// router (server/usage-report.ts); this route answers the same for other spellings of it
// (a trailing slash) and 405 for other methods.
import type { Route } from "./+types/index";
import { app } from "~/server/context.server";
import { postOnly } from "~/server/responses.server";
import { reportUsage } from "~/server/usage-report.server";

export const loader = postOnly;

export async function action({ request, context }: Route.ActionArgs) {
  return reportUsage(request, app(context));
}
