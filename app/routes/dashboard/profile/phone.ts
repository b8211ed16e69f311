// POST /dashboard/profile/phone: the phone dialog's two calls, intent=send (text a code to the
// profile's number) and intent=verify (check it). A client that asks for JSON gets
// { ok, state, … } or { ok: false, error } with a 4xx; a plain form post (no JavaScript) is sent
// back to the profile with the dialog open and the outcome in the URL.
import { redirect } from "react-router";
import type { Route } from "./+types/phone";
import { phoneCodeInputSchema } from "~/lib/phone/code";
import { phoneCodeKeys } from "~/lib/keys";
import { sendPhoneCode, verifyPhoneCode, type PhoneCodeChecked, type PhoneCodeSent } from "~/lib/phone/codes.server";
import { PHONE_FAILURE_STATUS, phoneFailureMessage, type PhoneFailed } from "~/lib/phone/outcome";
import { z } from "~/lib/zod";
import { getAuth } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { readForm, singleValue } from "~/server/requests.server";
import { postOnly, retryAfter } from "~/server/responses.server";
import { log } from "~/lib/log/log.server";

export const loader = postOnly;

const intentSchema = z.enum(["send", "verify"]);
const PROFILE_DIALOG = "/dashboard/profile?phone=verify";
const noStore = { "Cache-Control": "no-store" };

type Outcome = PhoneCodeSent | PhoneCodeChecked | (PhoneFailed & { status?: number; message?: string });

function answer(request: Request, outcome: Outcome): Response {
  const wantsJson = (request.headers.get("Accept") ?? "").includes("application/json");
  if (!outcome.ok) {
    const status = outcome.status ?? PHONE_FAILURE_STATUS[outcome.reason];
    if (!wantsJson) {
      if (outcome.reason === "not-authenticated") return redirect("/auth", 303);
      const wait = outcome.minutes ? `&phoneWait=${outcome.minutes}` : "";
      return redirect(`${PROFILE_DIALOG}&phoneError=${outcome.reason}${wait}`, 303);
    }
    const error = outcome.message ?? phoneFailureMessage(outcome.reason, outcome.minutes);
    const wait = outcome.retryAfterSeconds === undefined ? {} : retryAfter(outcome.retryAfterSeconds);
    return Response.json({ ok: false, reason: outcome.reason, error }, { status, headers: { ...noStore, ...wait } });
  }
  if (!wantsJson) return redirect(outcome.state === "verified" ? `${PROFILE_DIALOG}&phoneResult=verified` : PROFILE_DIALOG, 303);
  if (outcome.state === "verified") return Response.json({ ok: true, state: "verified", phone: outcome.phone }, { headers: noStore });
  const expiresIn = Math.max(0, Math.round((outcome.expiresAt - Date.now()) / 1000));
  return Response.json({ ok: true, state: "verifying", phone: outcome.phone, expiresAt: outcome.expiresAt, expiresIn }, { headers: noStore });
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = getAuth(context);
  if (!user) return answer(request, { ok: false, reason: "not-authenticated" });
  const read = await readForm(request);
  if (!read.ok) return answer(request, { ok: false, reason: "bad-request", status: read.status, message: read.message });
  const intent = intentSchema.safeParse(singleValue(read.formData, "intent"));
  if (!intent.success) return answer(request, { ok: false, reason: "bad-request" });

  const ctx = app(context);
  try {
    if (intent.data === "send") {
      return answer(request, await sendPhoneCode({ db: ctx.db, kv: ctx.kv, queue: ctx.queue, keys: phoneCodeKeys(ctx.env), origin: ctx.origin }, user.id));
    }
    const code = phoneCodeInputSchema.safeParse(singleValue(read.formData, "code") ?? "");
    if (!code.success) return answer(request, { ok: false, reason: "invalid-code" });
    return answer(request, await verifyPhoneCode({ db: ctx.db, kv: ctx.kv, keys: phoneCodeKeys(ctx.env) }, user.id, { code: code.data }));
  } catch (error) {
    log.error("phone_action_failed", { intent: intent.data }, error);
    return answer(request, { ok: false, reason: "error" });
  }
}
