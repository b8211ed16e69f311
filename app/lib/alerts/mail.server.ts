// The e-mails of alerts beyond budgets (issue 49): a model health rule broken, and the notice
// that a webhook was added to the account (it sends account data out, so the owner hears of it).
import { SITE_FORMATS } from "../format";
import type { OutgoingMail } from "../mail/mail.server";
import { alertTime } from "../usage/budget.server";
import type { HealthAlert } from "../usage/ledger/types";

function measured(a: Pick<HealthAlert, "kind" | "value">): string {
  return a.kind === "error_rate" ? `${SITE_FORMATS.decimal(a.value, 1)}%` : `${SITE_FORMATS.integer(Math.round(a.value))} ms`;
}

export function healthAlertMail(to: string, a: HealthAlert): OutgoingMail {
  const what = a.kind === "error_rate" ? "error rate" : "average latency";
  const limit = a.kind === "error_rate" ? `${a.threshold}%` : `${SITE_FORMATS.integer(a.threshold)} ms`;
  return {
    to,
    subject: `Modelify alert: ${a.modelName} ${what} ${measured(a)} over the last hour`,
    text: [
      `The ${what} of ${a.modelName} (${a.modelProvider}) was ${measured(a)} over ${SITE_FORMATS.integer(a.requests)} requests in the hour to ${alertTime(a.windowEnd, a.zone)}.`,
      `Your rule alerts above ${limit}. You will get at most one such e-mail per model per hour.`,
      "",
      "Change your alert rules in the dashboard, under Alerts.",
    ].join("\n"),
    links: [],
  };
}

export function webhookAddedMail(to: string, host: string, at: number, zone: string): OutgoingMail {
  return {
    to,
    subject: "A webhook was added to your Modelify account",
    text: [
      `A webhook to ${host} was added to your account at ${alertTime(at, zone)}. Your alerts (budgets and model health) will be sent to it.`,
      "",
      "If this was not you, remove it in the dashboard, under Alerts, and change your password.",
    ].join("\n"),
    links: [],
  };
}
