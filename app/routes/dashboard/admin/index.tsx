// The admin area (the spec's debug tab): subscription tools for administrators, each change
// audited, and publishing a build (the upload itself goes to ./releases.ts). Anyone else
// gets a 404 inside the dashboard.
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import type { Route } from "./+types/index";
import { DebugTab } from "~/components/dashboard/debug-tab";
import { TabError } from "~/components/dashboard/tab-error";
import { listReleases } from "~/lib/downloads/upload.server";
import { adminConfirmGrantYear, adminGrantYear, adminLookup, adminSetStatus, adminSignOutEverywhere, adminSyncFromStripe } from "~/lib/billing/admin.server";
import { adminToolsFormSchema } from "~/lib/billing/admin-form.server";
import { requireAdmin } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { readForm } from "~/server/requests.server";

const INVALID = "Please enter a valid email address and choose an action.";
export async function loader({ context }: Route.LoaderArgs) {
  requireAdmin(context);
  return { releases: await listReleases(app(context).db) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = requireAdmin(context);
  const read = await readForm(request);
  if (!read.ok) return data({ ok: false, message: read.message }, { status: read.status });
  const submission = parseWithZod(read.formData, { schema: adminToolsFormSchema });
  // Each refusal beside its field, and the summary where the tools' answers show.
  if (submission.status !== "success") return data({ ok: false, message: INVALID, result: submission.reply() }, { status: 400 });
  const { db, stripe } = app(context);
  const input = submission.value;
  switch (input.intent) {
    case "lookup":
      return adminLookup(db, stripe, admin, input.email);
    case "grant-year":
      return input.confirm === "yes" ? adminGrantYear(db, stripe, admin, input.email) : adminConfirmGrantYear(db, stripe, admin, input.email);
    case "set-status":
      return adminSetStatus(db, stripe, admin, input.email, input.status);
    case "sync":
      return adminSyncFromStripe(db, stripe, admin, input.email);
    case "sign-out-everywhere":
      return adminSignOutEverywhere(app(context), admin, input.email);
  }
}

export default function Admin({ loaderData, actionData }: Route.ComponentProps) {
  return <DebugTab submitted={actionData} releases={loaderData.releases} />;
}

export const ErrorBoundary = TabError;
