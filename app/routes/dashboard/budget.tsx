import { data, redirect } from "react-router";
import type { Route } from "./+types/budget";
import { BudgetTab } from "~/components/dashboard/budget-tab";
import { TabError } from "~/components/dashboard/tab-error";
import type { BudgetView } from "~/lib/usage/budget";
import { budgetFormSchema } from "~/lib/usage/budget-form";
import { getBudget, saveBudget } from "~/lib/usage/budget.server";
import { ledgerFor } from "~/lib/usage/ledger/api";
import { z } from "~/lib/zod";
import { requireUser } from "~/server/auth";
import { app } from "~/server/context";
import { readForm } from "~/server/requests";

const SAVE_FAILED = "Failed to save budget settings. Please try again.";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db, ledgers } = app(context);
  const params = new URL(request.url).searchParams;
  const [settings, { spend }] = await Promise.all([getBudget(db, user.id), ledgerFor(ledgers, user.id).read({ now: Date.now(), spend: true })]);
  const view: BudgetView = {
    settings,
    spent: { month: spend!.monthMicros / 1e6, today: spend!.dayMicros / 1e6 },
    editing: params.get("edit") === "1",
    prefillDefaults: params.get("defaults") === "1",
    saved: params.get("saved") === "1",
    errors: null,
    formError: null,
  };
  return { view };
}

/** The budget form: validate, store, then back to the budget view with its message. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const read = await readForm(request);
  if (!read.ok) return data({ budgetError: read.message, errors: null }, { status: read.status });
  if (read.formData.get("intent") !== "save-budget") return data({ budgetError: "Unknown action.", errors: null }, { status: 400 });
  const parsed = budgetFormSchema.safeParse(Object.fromEntries(read.formData));
  if (!parsed.success) {
    return data({ budgetError: SAVE_FAILED, errors: z.flattenError(parsed.error).fieldErrors as Record<string, string[] | undefined> }, { status: 400 });
  }
  try {
    await saveBudget(app(context).db, user.id, parsed.data);
  } catch (error) {
    console.error(JSON.stringify({ event: "budget_save_failed", error: String(error) }));
    return data({ budgetError: SAVE_FAILED, errors: null }, { status: 503 });
  }
  throw redirect("/dashboard/budget?saved=1");
}

export default function Budget({ loaderData, actionData }: Route.ComponentProps) {
  const view = actionData ? { ...loaderData.view, editing: true, errors: actionData.errors, formError: actionData.budgetError } : loaderData.view;
  return <BudgetTab view={view} />;
}

export const ErrorBoundary = TabError;
