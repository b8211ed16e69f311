// POST /dashboard/profile/sessions: the "Sessions and devices" card's forms. intent=end with a
// sessionId ends one of the user's other sessions; intent=end-others ends all but this one. The
// session in use is not ended here (Sign Out does that, and clears this browser's cookies).
// Plain form posts get a 303 back to the profile with ?sessions=<outcome> for the card to show;
// Accept: application/json gets JSON with the status.
import { redirect } from "react-router";
import type { Route } from "./+types/sessions";
import { endOtherSessions, endSession, type SessionsOutcome } from "~/lib/auth/sessions-list.server";
import { SESSION_MESSAGES } from "~/lib/profile/messages";
import { backWithOutcome } from "~/lib/auth/modes";
import { z } from "~/lib/zod";
import { getAuth } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { readForm } from "~/server/requests.server";
import { jsonError, postOnly } from "~/server/responses.server";

export const loader = postOnly;

const formSchema = z.discriminatedUnion("intent", [z.object({ intent: z.literal("end"), sessionId: z.uuid() }), z.object({ intent: z.literal("end-others") })]);

const NO_STORE = { "Cache-Control": "no-store" };

const wantsJson = (request: Request) => (request.headers.get("Accept") ?? "").includes("application/json");

/** JSON on request; else back to the page the form was on (`next`: the profile, or the access review). */
function answer(request: Request, next: string | null, outcome: SessionsOutcome, status: number, body: Record<string, unknown>) {
  if (wantsJson(request)) return Response.json(body, { status, headers: NO_STORE });
  return redirect(backWithOutcome(next, "sessions", outcome), 303);
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user, session } = getAuth(context);
  if (!user) return wantsJson(request) ? jsonError(401, SESSION_MESSAGES.signInRequired, NO_STORE) : redirect("/auth", 303);

  const read = await readForm(request);
  if (!read.ok) return jsonError(read.status, read.message, NO_STORE);
  const parsed = formSchema.safeParse(Object.fromEntries(read.formData));
  if (!parsed.success) return jsonError(400, SESSION_MESSAGES.invalid, NO_STORE);
  const next = typeof read.formData.get("next") === "string" ? String(read.formData.get("next")) : null;
  const deps = app(context);

  if (parsed.data.intent === "end-others") {
    const ended = await endOtherSessions(deps, user.id, session.id);
    return answer(request, next, "others-ended", 200, { ended });
  }
  if (parsed.data.sessionId === session.id) {
    return answer(request, next, "current", 409, { error: SESSION_MESSAGES.current });
  }
  // Another user's id ends nothing and answers like an id that never existed.
  const ended = await endSession(deps, user.id, parsed.data.sessionId);
  return ended ? answer(request, next, "ended", 200, { ended: 1 }) : answer(request, next, "not-found", 404, { error: SESSION_MESSAGES.notFound });
}
