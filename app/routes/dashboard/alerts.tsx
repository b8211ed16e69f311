import { data, redirect } from "react-router";
import type { Route } from "./+types/alerts";
import { AlertsTab } from "~/components/dashboard/alerts-tab";
import { TabError } from "~/components/dashboard/tab-error";
import { listRules, listWebhooks } from "~/lib/alerts/store.server";
import { budgetOf } from "~/lib/usage/budget.server";
import { requireUser } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { readForm } from "~/server/requests.server";
import { formErrorResult, keepRetryAfter } from "~/server/responses.server";
import { addRuleAction, addWebhookAction, removeAction } from "./alerts.server";

// A webhook refused by the daily limit of adds answers 429 with when to try again.
export const headers = keepRetryAfter;

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db } = app(context);
  const [rules, webhooks, budget] = await Promise.all([listRules(db, user.id), listWebhooks(db, user.id), budgetOf(db, user)]);
  return { rules, webhooks, thresholds: budget.alertThresholds, emailAlerts: budget.notificationsEnabled };
}

/** Each form names its intent; a success goes back to the page (an added webhook's secret is shown once instead). */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const deps = app(context);
  const read = await readForm(request);
  if (!read.ok) return data({ form: "page" as const, result: formErrorResult(read.message) }, { status: read.status });
  const intent = read.formData.get("intent");
  const answer =
    intent === "add-rule"
      ? await addRuleAction(deps, user, read.formData)
      : intent === "add-webhook"
        ? await addWebhookAction(deps, user, read.formData)
        : intent === "remove-rule" || intent === "remove-webhook"
          ? await removeAction(deps, user, read.formData, intent === "remove-rule" ? "rule" : "webhook")
          : data({ form: "page" as const, result: formErrorResult("Unknown action.") }, { status: 400 });
  if (answer === null) throw redirect("/dashboard/alerts");
  return answer;
}

export default function Alerts({ loaderData, actionData }: Route.ComponentProps) {
  return <AlertsTab view={loaderData} answer={actionData} />;
}

export const ErrorBoundary = TabError;
