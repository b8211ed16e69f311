// POST /dashboard/profile/export: "Download my data" asks for an export. Plain form posts get a
// 303 back to the profile (?export=requested | too-many) for the "Your data" card to show; with
// Accept: application/json the answer is JSON (202, or 429 with Retry-After).
// GET: the account's exports and their status (JSON), which the card asks for while one is being
// prepared, so the link shows without a reload (issue 46).
import { redirect } from "react-router";
import type { Route } from "./+types/export";
import { listExports, requestExport } from "~/lib/account/export.server";
import { EXPORT_MESSAGES } from "~/lib/account/messages";
import { SESSION_MESSAGES } from "~/lib/profile/messages";
import { getAuth } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { readForm } from "~/server/requests.server";
import { jsonError, retryAfter } from "~/server/responses.server";

const NO_STORE = { "Cache-Control": "no-store" };

export async function loader({ context }: Route.LoaderArgs) {
  const { user } = getAuth(context);
  if (!user) return jsonError(401, SESSION_MESSAGES.signInRequired, NO_STORE);
  return Response.json({ exports: await listExports(app(context).db, user.id) }, { headers: NO_STORE });
}
const wantsJson = (request: Request) => (request.headers.get("Accept") ?? "").includes("application/json");

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = getAuth(context);
  if (!user) return wantsJson(request) ? jsonError(401, SESSION_MESSAGES.signInRequired, NO_STORE) : redirect("/auth", 303);
  const read = await readForm(request);
  if (!read.ok) return jsonError(read.status, read.message, NO_STORE);
  const outcome = await requestExport(app(context), user.id);
  if (!outcome.ok) {
    if (wantsJson(request)) return jsonError(429, EXPORT_MESSAGES.tooMany, { ...NO_STORE, ...retryAfter(outcome.retryAfterSeconds) });
    return redirect("/dashboard/profile?export=too-many#your-data", { status: 303, headers: retryAfter(outcome.retryAfterSeconds) });
  }
  if (wantsJson(request)) return Response.json({ id: outcome.id, status: "pending" }, { status: 202, headers: NO_STORE });
  return redirect("/dashboard/profile?export=requested#your-data", 303);
}
