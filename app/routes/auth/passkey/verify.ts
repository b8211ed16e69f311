// POST /auth/passkey/verify: a passkey's answer to a sign-in challenge ({ response } as
// @simplewebauthn/browser encodes it). On success the session's cookies are set and the JSON
// names where to go (the same destinations as the password form, from the query).
import type { Route } from "./+types/verify";
import { PASSKEY_MESSAGES as M } from "~/lib/auth/passkey-messages";
import { signInWithPasskey } from "~/lib/auth/passkey-sign-in.server";
import { authenticationResponseSchema } from "~/lib/auth/passkeys.server";
import { z } from "~/lib/zod";
import { app } from "~/server/context.server";
import { headersWithCookies, sessionCookies } from "~/server/cookies.server";
import { readJson } from "~/server/requests.server";
import { jsonError, postOnly, retryAfter } from "~/server/responses.server";
import { destinationFor } from "../auth.server";

export const loader = postOnly;

const NO_STORE = { "Cache-Control": "no-store" };
const bodySchema = z.object({ response: authenticationResponseSchema });

export async function action({ request, context }: Route.ActionArgs) {
  const deps = app(context);
  const parsed = bodySchema.safeParse(await readJson(request, 16 * 1024));
  if (!parsed.success) return jsonError(400, M.invalid, NO_STORE);
  const outcome = await signInWithPasskey(deps, parsed.data.response);
  if (!outcome.ok)
    return jsonError(outcome.status, outcome.error, { ...NO_STORE, ...(outcome.retryAfterSeconds ? retryAfter(outcome.retryAfterSeconds) : {}) });
  const url = new URL(request.url);
  const headers = headersWithCookies(await sessionCookies(url, outcome.tokens));
  headers.set("Cache-Control", "no-store");
  return Response.json({ ok: true, destination: destinationFor(url) }, { headers });
}
