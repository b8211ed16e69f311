// POST /auth/passkey/options: a sign-in challenge for navigator.credentials.get() (the "Sign in
// with a passkey" button and the e-mail field's autofill, asked on every view of the sign-in page).
// The challenge is signed, not stored, so asking writes nothing and spends no limit: the answers
// are what is counted (issue 46). Answers JSON.
import type { Route } from "./+types/options";
import { authenticationOptions, relyingParty } from "~/lib/auth/passkeys.server";
import { app } from "~/server/context.server";
import { readEmptyBody } from "~/server/requests.server";
import { sessionKeys } from "~/lib/keys";
import { postOnly } from "~/server/responses.server";

export const loader = postOnly;

const NO_STORE = { "Cache-Control": "no-store" };

export async function action({ request, context }: Route.ActionArgs) {
  const { env, origin } = app(context);
  await readEmptyBody(request, 64);
  const { options } = await authenticationOptions(sessionKeys(env), relyingParty(origin));
  return Response.json({ options }, { headers: NO_STORE });
}
