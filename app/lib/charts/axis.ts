// What a chart's axes say, apart from how they are drawn (components/charts.tsx).

/**
 * The value axis' labelled ticks: for a count series only whole numbers, and never two ticks that
 * read the same (an empty chart's 0 to 1 scale once read "0, 0, 0, 1, 1, 1").
 */
export function valueTicks(candidates: number[], format: (n: number) => string, integer: boolean): { value: number; label: string }[] {
  const seen = new Set<string>();
  const out: { value: number; label: string }[] = [];
  for (const value of candidates) {
    if (integer && !Number.isInteger(value)) continue;
    const label = format(value);
    if (label === "" || seen.has(label)) continue;
    seen.add(label);
    out.push({ value, label });
  }
  return out;
}

/** Indexes of the category labels to show: every step-th one, at most `max` of them. */
export function shownLabels(count: number, max: number): Set<number> {
  const step = Math.max(1, Math.ceil(count / max));
  const shown = new Set<number>();
  for (let i = 0; i < count; i += step) shown.add(i);
  return shown;
}

/** Labels on a phone: at most this many, so each keeps its 11 px and none overlap. */
export const MOBILE_MAX_LABELS = 4;
