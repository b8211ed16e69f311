import type { ReactNode } from "react";

/** One label and its figure in a card's definition list. */
export function DefinitionRow({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <div className="flex justify-between gap-4">
      <dt className="text-slate-500">{label}</dt>
      <dd className="font-semibold text-slate-900" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}
