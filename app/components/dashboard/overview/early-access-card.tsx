import { Link } from "react-router";
import type { AccountOverview } from "~/lib/account/overview.server";
import { RedeemKeyForm } from "../../early-access/redeem-form";
import { buttonClass, Card } from "../../ui";
import { useFormat } from "~/components/format";

/**
 * Early access (ADR 0012): a member sees until when; an account that is not activated yet can
 * redeem a key here (filled in when one waits from its e-mail link). A subscriber sees nothing.
 */
export function EarlyAccessCard({ account, pendingKey }: { account: AccountOverview; pendingKey: string | null }) {
  const f = useFormat();
  if (account.earlyAccess.active) {
    return (
      <div
        className="mt-8 flex flex-wrap items-center justify-between gap-3 rounded-2xl border border-emerald-200 bg-emerald-50 px-6 py-4 shadow-sm"
        data-testid="early-access-status"
      >
        <div>
          <h2 className="text-sm font-semibold text-emerald-800">Early access</h2>
          <p className="mt-0.5 text-sm text-emerald-900">
            {account.earlyAccess.expiresAt ? `Active until ${f.date(account.earlyAccess.expiresAt)}` : "Active"}
          </p>
        </div>
        <Link to="/dashboard/downloads" className={buttonClass("secondary", "sm")}>
          Download the App
        </Link>
      </div>
    );
  }
  if (account.activated) return null;
  return (
    <Card className="mt-8 grid gap-6 p-6 md:grid-cols-2 md:items-center" data-testid="early-access-card">
      <div>
        <h2 className="text-lg font-semibold text-slate-900">Activate early access</h2>
        <p className="mt-1 text-sm leading-6 text-slate-600">
          Got an activation key from the waitlist? Redeem it to unlock the desktop app, downloads and Model Analytics.{" "}
          <Link to="/early-access" className="rounded font-medium text-brand-700 hover:text-brand-800">
            Join the waitlist
          </Link>{" "}
          if you have none yet.
        </p>
      </div>
      <RedeemKeyForm defaultKey={pendingKey} compact />
    </Card>
  );
}
