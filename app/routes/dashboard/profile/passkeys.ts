// POST /dashboard/profile/passkeys: the "Passkeys" card's forms. intent=options hands out a
// registration challenge and intent=register stores the passkey that answered it (both from the
// card's script: answers JSON); intent=rename and intent=remove act on one of the user's own
// passkeys (plain forms: a 303 back to the profile with ?passkeys=<outcome>, or JSON on request).
// Another user's passkey id changes nothing and answers like an id that never existed. Adding and
// removing a passkey add or remove a way in: both need a recent proof ("Confirm it's you"), and
// the owner is mailed.
import { redirect } from "react-router";
import type { Route } from "./+types/passkeys";
import { PASSKEY_MESSAGES as M, type PasskeyOutcome } from "~/lib/auth/passkey-messages";
import {
  passkeyNameSchema,
  registerPasskey,
  registrationOptions,
  registrationResponseSchema,
  relyingParty,
  removePasskey,
  renamePasskey,
} from "~/lib/auth/passkeys.server";
import { backWithOutcome, safeNext } from "~/lib/auth/modes";
import { z } from "~/lib/zod";
import { getAuth } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { proofRequired, recentProof } from "~/server/recent-proof.server";
import { readForm } from "~/server/requests.server";
import { jsonError, postOnly, retryAfter } from "~/server/responses.server";

export const loader = postOnly;

const id = z.string().min(1).max(1400);
const jsonField = z
  .string()
  .max(16 * 1024)
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: M.invalid });
      return z.NEVER;
    }
  });
const formSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("options") }),
  z.object({ intent: z.literal("register"), name: passkeyNameSchema, response: jsonField.pipe(registrationResponseSchema) }),
  z.object({ intent: z.literal("rename"), id, name: passkeyNameSchema }),
  z.object({ intent: z.literal("remove"), id }),
]);

const NO_STORE = { "Cache-Control": "no-store" };
const wantsJson = (request: Request) => (request.headers.get("Accept") ?? "").includes("application/json");

/** JSON for the card's script; else back to the page the form was on (`next`: the profile, or the access review). */
function answer(request: Request, next: string | null, outcome: PasskeyOutcome, status: number, body: Record<string, unknown>) {
  if (wantsJson(request)) return Response.json(body, { status, headers: NO_STORE });
  return redirect(backWithOutcome(next, "passkeys", outcome, "passkeys-title"), 303);
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = getAuth(context);
  if (!user) return wantsJson(request) ? jsonError(401, M.signInRequired, NO_STORE) : redirect("/auth", 303);
  const read = await readForm(request, 24 * 1024);
  if (!read.ok) return jsonError(read.status, read.message, NO_STORE);
  const parsed = formSchema.safeParse(Object.fromEntries(read.formData));
  const next = typeof read.formData.get("next") === "string" ? String(read.formData.get("next")) : null;
  if (!parsed.success) {
    const message = parsed.error.issues.find((issue) => issue.path[0] === "name")?.message ?? M.invalid;
    return answer(request, next, "invalid", 400, { error: message });
  }
  const deps = app(context);
  const rp = relyingParty(deps.origin);
  const owner = { id: user.id, email: user.email };
  const input = parsed.data;

  if (input.intent === "rename") {
    const renamed = await renamePasskey(deps.db, user.id, input.id, input.name);
    return renamed ? answer(request, next, "renamed", 200, { ok: true }) : answer(request, next, "not-found", 404, { error: M.notFound });
  }
  const proven = await recentProof(context);
  if (!proven.ok) return proofRequired(request, `${safeNext(next).split(/[?#]/)[0]}#passkeys-title`);
  if (input.intent === "options" || input.intent === "register") {
    const outcome =
      input.intent === "options" ? await registrationOptions(deps.db, rp, owner, proven.proof) : await registerPasskey(deps, rp, owner, input, proven.proof);
    if (!outcome.ok) {
      const headers = { ...NO_STORE, ...(outcome.retryAfterSeconds ? retryAfter(outcome.retryAfterSeconds) : {}) };
      return jsonError(outcome.status, outcome.error, headers);
    }
    return Response.json(outcome, { headers: NO_STORE });
  }
  const removed = await removePasskey(deps, owner, input.id, proven.proof);
  return removed ? answer(request, next, "removed", 200, { ok: true }) : answer(request, next, "not-found", 404, { error: M.notFound });
}
