// POST /auth/passkey/options: a sign-in challenge for navigator.credentials.get() (the "Sign in
// with a passkey" button and the e-mail field's autofill). Public, so capped per IP; answers JSON.
import type { Route } from "./+types/options";
import { authenticationOptions, relyingParty } from "~/lib/auth/passkeys.server";
import { app } from "~/server/context";
import { readEmptyBody } from "~/server/requests";
import { jsonError, postOnly, retryAfter } from "~/server/responses";

export const loader = postOnly;

const NO_STORE = { "Cache-Control": "no-store" };

export async function action({ request, context }: Route.ActionArgs) {
  const { db, origin, ip } = app(context);
  await readEmptyBody(request, 64);
  const outcome = await authenticationOptions(db, relyingParty(origin), ip);
  if (!outcome.ok) {
    return jsonError(outcome.status, outcome.error, { ...NO_STORE, ...(outcome.retryAfterSeconds ? retryAfter(outcome.retryAfterSeconds) : {}) });
  }
  return Response.json({ options: outcome.options }, { headers: NO_STORE });
}
