import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import type { Route } from "./+types/budget";
import { BudgetTab } from "~/components/dashboard/budget-tab";
import { TabError } from "~/components/dashboard/tab-error";
import { budgetFormSchema } from "~/lib/usage/budget-form";
import { saveBudget } from "~/lib/usage/budget.server";
import { requireUser } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { readForm } from "~/server/requests.server";
import { formErrorResult } from "~/server/responses.server";
import { log } from "~/lib/log/log.server";
import { type BudgetActionData, budgetView, capAction } from "./budget.server";

const SAVE_FAILED = "Failed to save budget settings. Please try again.";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  return { view: await budgetView(app(context), user, new URL(request.url).searchParams, Date.now()) };
}

/** The budget form and the cap forms: validate, store, then back to the budget view with its message. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const read = await readForm(request);
  if (!read.ok) return data<BudgetActionData>({ form: "budget", result: formErrorResult(read.message) }, { status: read.status });
  const intent = read.formData.get("intent");
  if (intent === "save-cap" || intent === "remove-cap") return capAction(app(context), user, intent, read.formData);
  if (intent !== "save-budget") return data<BudgetActionData>({ form: "budget", result: formErrorResult("Unknown action.") }, { status: 400 });
  // Strings as sent: an empty number field is the spec's "non-numeric" and gets its default,
  // which conform's coercion (empty means missing) would turn into a refusal.
  const submission = parseWithZod(read.formData, { schema: budgetFormSchema, disableAutoCoercion: true });
  // Refused values are answered beside their fields, with nothing saved: "Failed to save… try
  // again" would send the user to retry what can only be refused again.
  if (submission.status !== "success") return data<BudgetActionData>({ form: "budget", result: submission.reply() }, { status: 400 });
  try {
    await saveBudget(app(context).db, user.id, submission.value);
  } catch (error) {
    log.error("budget_save_failed", {}, error);
    return data<BudgetActionData>({ form: "budget", result: submission.reply({ formErrors: [SAVE_FAILED] }) }, { status: 503 });
  }
  throw redirect("/dashboard/budget?saved=1");
}

export default function Budget({ loaderData, actionData }: Route.ComponentProps) {
  // A refused budget post shows the form again, with what was sent and why it was refused.
  const view = actionData?.form === "budget" ? { ...loaderData.view, editing: true } : loaderData.view;
  return (
    <BudgetTab
      view={view}
      result={actionData?.form === "budget" ? actionData.result : undefined}
      capResult={actionData?.form === "cap" ? actionData.result : undefined}
    />
  );
}

export const ErrorBoundary = TabError;
