// POST /downloads/prepare (platform, arch): the download call of the landing, dashboard and
// post-payment dialogs. Answers { success, download_url, error } to a fetcher; a form posted
// without JavaScript is sent straight to the file, or back to the Downloads tab with the reason.
import { redirect } from "react-router";
import type { Route } from "./+types/prepare";
import { DOWNLOAD_MESSAGES } from "~/lib/downloads/messages";
import { prepareDownload } from "~/lib/downloads/releases.server";
import { downloadLinkKeys } from "~/lib/keys";
import { z } from "~/lib/zod";
import { getAuth } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { readForm } from "~/server/requests.server";
import { postOnly } from "~/server/responses.server";

export const loader = postOnly;

const formSchema = z.object({ platform: z.string().max(20), arch: z.string().max(20) });

export async function action({ request, context }: Route.ActionArgs) {
  const ctx = app(context);
  const { user } = getAuth(context);
  const read = await readForm(request);
  const parsed = read.ok ? formSchema.safeParse(Object.fromEntries(read.formData)) : null;
  const result = parsed?.success
    ? await prepareDownload(ctx.db, downloadLinkKeys(ctx.env), ctx.origin, user?.id ?? null, parsed.data)
    : ({ ok: false, status: read.ok ? 400 : read.status, code: "unknownOption", message: read.ok ? DOWNLOAD_MESSAGES.unknownOption : read.message } as const);

  const navigation = request.headers.get("Sec-Fetch-Mode") === "navigate";
  if (navigation) {
    if (result.ok) return redirect(result.url, 303);
    if (!user) return redirect("/auth", 303);
    // A code, not words: the tab maps it to its own text (a URL must not make the site say anything).
    return redirect(`/dashboard/downloads?error=${result.code}`, 303);
  }
  if (result.ok) return Response.json({ success: true, download_url: result.url, release: result.release }, { headers: { "Cache-Control": "no-store" } });
  return Response.json({ success: false, error: result.message }, { status: result.status, headers: { "Cache-Control": "no-store" } });
}
