// The programme in numbers: waitlist, grants, keys by state, redemption rate, and a bar chart of
// keys redeemed per ISO week (weeks start on Monday, UTC).
import type { EarlyAccessStats } from "~/lib/early-access/admin.server";
import { BarChart } from "../charts";
import { StatCard } from "../dashboard/stat";
import { Card } from "../ui";
import { useFormat } from "~/components/format";

export function AdminStats({ stats }: { stats: EarlyAccessStats }) {
  const f = useFormat();
  const cards = [
    { title: "Waitlist", value: stats.waitlistSize, testId: "stat-waitlist", hint: `${stats.waitlistSize - stats.granted} waiting` },
    { title: "Granted", value: stats.granted, testId: "stat-granted" },
    { title: "Keys created", value: stats.keysCreated, testId: "stat-created" },
    { title: "Keys used", value: stats.keysUsed, testId: "stat-used" },
    { title: "Keys expired", value: stats.keysExpired, testId: "stat-expired", hint: "unused past their expiry" },
    { title: "Keys revoked", value: stats.keysRevoked, testId: "stat-revoked" },
  ];
  return (
    <section aria-labelledby="ea-stats">
      <h2 id="ea-stats" className="sr-only">
        Statistics
      </h2>
      <div className="grid grid-cols-2 gap-4 sm:grid-cols-3 xl:grid-cols-6">
        {cards.map((c) => (
          <StatCard key={c.title} title={c.title} value={String(c.value)} hint={c.hint} testId={c.testId} />
        ))}
      </div>
      <div className="mt-4 grid items-start gap-4 @4xl:grid-cols-[16rem_minmax(0,1fr)]">
        <StatCard title="Redemption rate" value={`${stats.redemptionRate}%`} hint="keys used ÷ keys created" testId="stat-rate" />
        <Card className="p-5">
          <p className="text-sm font-medium text-slate-500">Activations per week</p>
          <div className="mt-3">
            <BarChart
              title="Activation keys redeemed per week"
              data={stats.activationsPerWeek.map((w) => ({ label: f.monthDay(w.weekStart), value: w.count }))}
              format={(n) => String(n)}
              integer
              height={200}
            />
          </div>
        </Card>
      </div>
    </section>
  );
}
