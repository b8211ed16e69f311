// The profile's "Danger zone": the way to "Delete my account" (its own page, which says what happens).
import { Link } from "react-router";
import { buttonClass, Card } from "../ui";

export function DangerZoneCard() {
  return (
    <section aria-labelledby="danger-title">
      <Card className="border-red-200 p-6">
        <h2 id="danger-title" className="text-lg font-semibold text-red-700">
          Danger zone
        </h2>
        <div className="mt-2 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-slate-600">
            Delete your account and the data it holds. Your subscription is cancelled at once, without a refund for the partial month.
          </p>
          <Link to="/dashboard/profile/delete" className={buttonClass("danger", "sm", "w-full shrink-0 sm:w-auto")}>
            Delete my account
          </Link>
        </div>
      </Card>
    </section>
  );
}
