import { ACHIEVEMENTS, MS } from "~/lib/constants";
import type { OverviewUsage } from "~/lib/usage/analytics.server";
import { useFormat } from "../../format";
import { Card, cx } from "../../ui";

export function AchievementsCard({ achievements, className }: { achievements: OverviewUsage["achievements"]; className?: string }) {
  const { powerUser, speedDemon, innovator } = achievements;
  const f = useFormat();
  return (
    <Card className={cx("p-6", className)}>
      <h2 className="text-base font-semibold text-slate-900">Recent Achievements</h2>
      <ul className="mt-4 space-y-3 text-sm">
        <Achievement
          done={powerUser.done}
          title="Power User"
          detail={powerUser.done ? "100+ requests this month" : `${powerUser.progress}/${powerUser.of} requests`}
        />
        <Achievement
          done={speedDemon.done}
          title="Speed Demon"
          detail={`Average response ${f.decimal(speedDemon.avgSeconds, 2)} s (under ${f.integer(ACHIEVEMENTS.speedDemonMs / MS.SECOND)} s wins)`}
        />
        <Achievement
          done={innovator.done}
          title="Innovator"
          detail={innovator.done ? "3+ models this month" : `${innovator.progress}/${innovator.of} models`}
        />
      </ul>
    </Card>
  );
}

function Achievement({ done, title, detail }: { done: boolean; title: string; detail: string }) {
  return (
    <li className="flex items-start gap-3">
      <span
        className={cx(
          "mt-0.5 flex h-6 w-6 shrink-0 items-center justify-center rounded-full text-xs font-bold",
          done ? "bg-emerald-100 text-emerald-700" : "bg-slate-100 text-slate-400",
        )}
        aria-hidden="true"
      >
        {done ? "✓" : "•"}
      </span>
      <span>
        <span className="block font-semibold text-slate-900">
          {title}
          <span className="sr-only">{done ? " (earned)" : " (in progress)"}</span>
        </span>
        <span className="text-slate-600">{detail}</span>
      </span>
    </li>
  );
}
