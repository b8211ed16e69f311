import { Money } from "~/components/money";
import { useNavigation, Link } from "react-router";
import type { InvoiceRow } from "~/lib/billing/billing.server";
import type { BillingData } from "~/lib/billing/billing-tab.server";
import { Alert, buttonClass, Card, cx, Spinner } from "../ui";
import { useFormat } from "~/components/format";

// Spec: void and uncollectible use failure styling; unknown statuses are neutral.
const STATUS_STYLES: Record<string, string> = {
  paid: "bg-emerald-50 text-emerald-700",
  open: "bg-amber-50 text-amber-800",
  draft: "bg-slate-100 text-slate-700",
  void: "bg-red-50 text-red-700",
  uncollectible: "bg-red-50 text-red-700",
};

export function InvoicesView({ billing, portalConfirm }: { billing: BillingData; portalConfirm: string }) {
  const invoices = billing.snapshot.invoices;
  const navigation = useNavigation();
  const refreshing = navigation.state === "loading" && navigation.location?.search.includes("view=invoices");
  return (
    <Card className="p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold text-slate-900">Invoices</h2>
        <div className="flex gap-2">
          <Link to="/dashboard/billing?view=invoices" preventScrollReset className={buttonClass("ghost", "sm")}>
            {refreshing ? <Spinner className="h-4 w-4" label="Refreshing" /> : null} Refresh
          </Link>
          {billing.snapshot.customerId ? (
            <Link to={portalConfirm} preventScrollReset className={buttonClass("secondary", "sm")}>
              Manage in Stripe
            </Link>
          ) : null}
        </div>
      </div>
      {invoices === null ? (
        <Alert tone="error" className="mt-4">
          {billing.snapshot.error ?? "Failed to load invoices"}
        </Alert>
      ) : invoices.length === 0 ? (
        <div className="mt-6 rounded-xl border border-dashed border-slate-300 p-8 text-center">
          <h3 className="font-semibold text-slate-900">No Invoices Yet</h3>
          <p className="mt-2 text-sm text-slate-600">Stripe Billing History: your receipts will appear here after your first payment.</p>
          <Link to="/pricing" className={buttonClass("secondary", "sm", "mt-4")}>
            View Pricing
          </Link>
        </div>
      ) : (
        <InvoiceTable invoices={invoices} />
      )}
    </Card>
  );
}

function InvoiceTable({ invoices }: { invoices: InvoiceRow[] }) {
  const f = useFormat();
  return (
    <div className="mt-4 overflow-x-auto">
      <table className="w-full min-w-[36rem] text-left text-sm">
        <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th className="py-2 pr-4 font-medium">Invoice</th>
            <th className="py-2 pr-4 font-medium">Date</th>
            <th className="py-2 pr-4 font-medium">Amount</th>
            <th className="py-2 pr-4 font-medium">Status</th>
            <th className="py-2 font-medium">Actions</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {invoices.map((inv) => (
            <tr key={inv.id}>
              <td className="py-3 pr-4 font-medium text-slate-900">
                {inv.number}
                {inv.trial ? (
                  <span className="block text-xs font-normal text-slate-500">
                    Free trial{inv.trial.until ? ` until ${f.date(inv.trial.until)}` : ""}: nothing charged
                  </span>
                ) : null}
              </td>
              <td className="py-3 pr-4 text-slate-600">{f.date(inv.date)}</td>
              <td className="py-3 pr-4 text-slate-900">
                {inv.currency === "USD" ? <Money value={inv.amount} /> : `${f.decimal(inv.amount, 2)} ${inv.currency}`}
              </td>
              <td className="py-3 pr-4">
                {inv.trial ? (
                  // Stripe calls it paid, as there was nothing to pay; "Paid" beside 0.00 would read as a charge.
                  <span className="rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-semibold text-brand-700">Free trial</span>
                ) : (
                  <span
                    className={cx("rounded-full px-2.5 py-0.5 text-xs font-semibold capitalize", STATUS_STYLES[inv.status] ?? "bg-slate-100 text-slate-700")}
                  >
                    {inv.status}
                  </span>
                )}
              </td>
              <td className="py-3">
                {inv.pdfUrl || inv.hostedUrl ? (
                  <span className="flex gap-3">
                    {inv.pdfUrl ? (
                      <a className="font-medium text-brand-700 hover:text-brand-800" href={inv.pdfUrl} target="_blank" rel="noreferrer">
                        PDF
                      </a>
                    ) : null}
                    {inv.hostedUrl ? (
                      <a className="font-medium text-brand-700 hover:text-brand-800" href={inv.hostedUrl} target="_blank" rel="noreferrer">
                        View
                      </a>
                    ) : null}
                  </span>
                ) : (
                  <span className="text-xs text-slate-500">Invoice download not available for this invoice.</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
