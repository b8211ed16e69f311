// POST /admin/subscription: the debug tab's tools. Admins only: everyone else gets 403.
import { data, redirect } from "react-router";
import { z } from "~/lib/zod";
import type { Route } from "./+types/admin.subscription";
import { requireUser, getCloudflare } from "~/lib/auth/request.server";
import { ADMIN_STATUSES, adminGrantYear, adminLookup, adminSetStatus, adminSyncFromStripe } from "~/lib/billing/admin.server";
import { getStripe } from "~/lib/billing/stripe.server";
import { getDb } from "~/lib/db.server";
import { parseEnv } from "~/lib/env.server";
import { readForm } from "~/lib/http.server";

const formSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("lookup"), email: z.email().max(254) }),
  z.object({ intent: z.literal("grant-year"), email: z.email().max(254) }),
  z.object({ intent: z.literal("sync"), email: z.email().max(254) }),
  z.object({ intent: z.literal("set-status"), email: z.email().max(254), status: z.enum(ADMIN_STATUSES) }),
]);

function requireAdmin(context: Route.LoaderArgs["context"]) {
  const user = requireUser(context);
  if (user.role !== "admin") throw data({ kind: "forbidden", message: "Only administrators can use the subscription tools." }, { status: 403 });
  return user;
}

export function loader({ context }: Route.LoaderArgs) {
  requireAdmin(context);
  throw redirect("/dashboard?tab=debug");
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = requireAdmin(context);
  const read = await readForm(request);
  if (!read.ok) return data({ ok: false, message: read.message }, { status: read.status });
  const parsed = formSchema.safeParse(Object.fromEntries(read.formData));
  if (!parsed.success) return data({ ok: false, message: "Please enter a valid email address and choose an action." }, { status: 400 });
  const { env } = getCloudflare(context);
  const db = getDb(env.DB);
  const input = parsed.data;
  switch (input.intent) {
    case "lookup":
      return adminLookup(db, admin, input.email);
    case "grant-year":
      return adminGrantYear(db, admin, input.email);
    case "set-status":
      return adminSetStatus(db, admin, input.email, input.status);
    case "sync":
      return adminSyncFromStripe(db, getStripe(parseEnv(env)), admin, input.email);
  }
}
