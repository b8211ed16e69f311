import { Link } from "react-router";
import { Card, cx } from "../../ui";

export function ModelAnalyticsCard({ modelCount, className }: { modelCount: number; className?: string }) {
  return (
    <Card className={cx("p-5", className)}>
      <p className="text-sm font-medium text-slate-500">Model Analytics</p>
      <p className="mt-2 text-2xl font-semibold text-slate-900">{modelCount}</p>
      <Link to="/dashboard/analytics" className="mt-2 inline-block text-xs font-semibold text-brand-700 hover:text-brand-800">
        View Analytics
      </Link>
    </Card>
  );
}
