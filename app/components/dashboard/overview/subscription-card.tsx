import type { AccountOverview } from "~/lib/account/overview.server";
import type { NextBilling } from "~/lib/billing/subscription-view";
import type { Formats } from "~/lib/format";
import { useFormat } from "../../format";
import { Card, cx, LinkButton } from "../../ui";

// Spec: the date the current period ends, else "Subscribe to access features"; a subscription
// that will not renew says so, as the billing tab does.
function nextBillingText(next: NextBilling, f: Formats): { value: string; hint: string | null } {
  if (next.kind === "none") return { value: "Subscribe to access features", hint: null };
  if (next.date === null) return { value: next.label, hint: null };
  return { value: f.date(next.date), hint: next.kind === "renews" ? null : next.label };
}

export function SubscriptionCard({
  subscription,
  activated,
  className,
}: {
  subscription: AccountOverview["subscription"];
  activated: boolean;
  className?: string;
}) {
  const next = nextBillingText(subscription.nextBilling, useFormat());
  return (
    // A column, so that where the grid stretches the card beside two others (two columns), its
    // action sits at the bottom edge instead of above an empty half.
    <Card className={cx("flex flex-col p-6", className)}>
      <div className="flex items-start justify-between gap-4">
        <div className="min-w-0">
          <h2 className="text-sm font-medium text-slate-500">Subscription</h2>
          <p className="mt-2 text-lg font-semibold text-slate-900">{subscription.plan.summary}</p>
        </div>
        <span
          data-testid="subscription-status"
          className={cx(
            "shrink-0 whitespace-nowrap rounded-full px-3 py-1 text-xs font-semibold",
            subscription.active ? "bg-emerald-50 text-emerald-700" : "bg-slate-100 text-slate-700",
          )}
        >
          {subscription.status}
        </span>
      </div>
      <dl className="mt-4 space-y-2 text-sm">
        <div className="flex justify-between gap-3">
          <dt className="shrink-0 text-slate-500">Next billing</dt>
          <dd className="text-right font-semibold text-slate-900" data-testid="overview-next-billing">
            {next.value}
            {next.hint ? <span className="block text-xs font-normal text-slate-500">{next.hint}</span> : null}
          </dd>
        </div>
        <div className="flex justify-between gap-3">
          <dt className="shrink-0 text-slate-500">Card on file</dt>
          <dd className="font-semibold text-slate-900">{subscription.card.text}</dd>
        </div>
      </dl>
      {activated ? null : (
        <div className="mt-auto pt-5">
          <LinkButton to="/pricing" size="sm">
            Get Subscription
          </LinkButton>
        </div>
      )}
    </Card>
  );
}
