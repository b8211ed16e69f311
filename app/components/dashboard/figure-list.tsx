import type { ReactNode } from "react";

/** A row of labelled figures (label above, value below): two columns on a phone, four from sm up. */
export function FigureList({ figures, testId }: { figures: ReadonlyArray<readonly [label: string, value: ReactNode]>; testId: string }) {
  return (
    <dl className="mt-4 grid grid-cols-2 gap-4 sm:grid-cols-4" data-testid={testId}>
      {figures.map(([label, value]) => (
        <div key={label}>
          <dt className="text-sm text-slate-600">{label}</dt>
          <dd className="mt-1 text-xl font-semibold tabular-nums text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
