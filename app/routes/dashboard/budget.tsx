import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import type { Route } from "./+types/budget";
import { BudgetTab } from "~/components/dashboard/budget-tab";
import { TabError } from "~/components/dashboard/tab-error";
import type { BudgetView } from "~/lib/usage/budget";
import { budgetFormSchema } from "~/lib/usage/budget-form";
import { budgetOf, saveBudget } from "~/lib/usage/budget.server";
import { addDays, dayKey, dayStart, startOfNextMonth } from "~/lib/usage/dates";
import { ledgerFor } from "~/lib/usage/ledger/api";
import { requireUser } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { readForm } from "~/server/requests.server";
import { formErrorResult } from "~/server/responses.server";
import { log } from "~/lib/log/log.server";

const SAVE_FAILED = "Failed to save budget settings. Please try again.";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db, ledgers } = app(context);
  const params = new URL(request.url).searchParams;
  const now = Date.now();
  const zone = user.profile.timeZone;
  const [settings, { spend }] = await Promise.all([budgetOf(db, user), ledgerFor(ledgers, user.id).read({ now, zone, spend: true })]);
  const view: BudgetView = {
    settings,
    spent: { month: spend!.monthMicros / 1e6, today: spend!.dayMicros / 1e6 },
    resets: { today: dayStart(addDays(dayKey(now, zone), 1), zone), month: startOfNextMonth(now, zone), zone },
    editing: params.get("edit") === "1",
    prefillDefaults: params.get("defaults") === "1",
    saved: params.get("saved") === "1",
  };
  return { view };
}

/** The budget form: validate, store, then back to the budget view with its message. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const read = await readForm(request);
  if (!read.ok) return data({ result: formErrorResult(read.message) }, { status: read.status });
  if (read.formData.get("intent") !== "save-budget") return data({ result: formErrorResult("Unknown action.") }, { status: 400 });
  // Strings as sent: an empty number field is the spec's "non-numeric" and gets its default,
  // which conform's coercion (empty means missing) would turn into a refusal.
  const submission = parseWithZod(read.formData, { schema: budgetFormSchema, disableAutoCoercion: true });
  // Refused values are answered beside their fields, with nothing saved: "Failed to save… try
  // again" would send the user to retry what can only be refused again.
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  try {
    await saveBudget(app(context).db, user.id, submission.value);
  } catch (error) {
    log.error("budget_save_failed", {}, error);
    return data({ result: submission.reply({ formErrors: [SAVE_FAILED] }) }, { status: 503 });
  }
  throw redirect("/dashboard/budget?saved=1");
}

export default function Budget({ loaderData, actionData }: Route.ComponentProps) {
  // A refused post shows the form again, with what was sent and why it was refused.
  const view = actionData ? { ...loaderData.view, editing: true } : loaderData.view;
  return <BudgetTab view={view} result={actionData?.result} />;
}

export const ErrorBoundary = TabError;
