import { data, redirect } from "react-router";
import type { Route } from "./+types/auth.sign-out";
import { AUTH_MESSAGES as M } from "~/lib/auth/messages";
import { clearSessionCookies, getAuth, getCloudflare, headersWithCookies } from "~/lib/auth/request.server";
import { revokeSession } from "~/lib/auth/session.server";
import { getDb } from "~/lib/db.server";
import { readForm, safeRedirectPath } from "~/lib/http.server";

export async function loader() {
  throw redirect("/");
}

export async function action({ request, context }: Route.ActionArgs) {
  const read = await readForm(request);
  const redirectTo = safeRedirectPath(read.ok ? read.formData.get("redirectTo") : null, "/");
  const { session } = getAuth(context);
  if (session) {
    try {
      await revokeSession(getDb(getCloudflare(context).env.DB), session.id, "sign_out");
    } catch (error) {
      console.error(JSON.stringify({ event: "sign_out_failed", error: String(error) }));
      return data({ error: M.signOutFailed }, { status: 503 });
    }
  }
  throw redirect(redirectTo, { headers: headersWithCookies(clearSessionCookies(new URL(request.url))) });
}
