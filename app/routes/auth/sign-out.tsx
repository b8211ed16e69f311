import { data, redirect } from "react-router";
import type { Route } from "./+types/sign-out";
import { AUTH_MESSAGES as M } from "~/lib/auth/messages";
import { revokeSession } from "~/lib/auth/session.server";
import { getAuth } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { clearSessionCookies, headersWithCookies } from "~/server/cookies.server";
import { safeRedirectPath } from "~/server/redirects.server";
import { readForm } from "~/server/requests.server";
import { log } from "~/lib/log/log.server";

export async function loader() {
  throw redirect("/");
}

export async function action({ request, context }: Route.ActionArgs) {
  const read = await readForm(request);
  const redirectTo = safeRedirectPath(read.ok ? read.formData.get("redirectTo") : null, "/");
  const { session } = getAuth(context);
  if (session) {
    try {
      await revokeSession(app(context), session.id, "sign_out");
    } catch (error) {
      log.error("sign_out_failed", {}, error);
      return data({ error: M.signOutFailed }, { status: 503 });
    }
  }
  throw redirect(redirectTo, { headers: headersWithCookies(await clearSessionCookies(new URL(request.url))) });
}
