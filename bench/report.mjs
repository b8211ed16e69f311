// The figures' arithmetic and writing, the same in every section of bench/results.md.

/** Min, median (the lower of two middles) and max. */
export const stats = (values) => {
  const s = [...values].sort((a, b) => a - b);
  return { min: s[0], median: s[Math.floor((s.length - 1) / 2)], max: s[s.length - 1] };
};

/** A number with exactly `d` decimals, grouped as en-US writes it. */
export const f = (n, d = 0) => n.toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: d });

/** "min / median / max" with `d` decimals. */
export const three = (values, d) => {
  const { min, median, max } = stats(values);
  return `${f(min, d)} / ${f(median, d)} / ${f(max, d)}`;
};

/** A goal's "met" cell. */
export const met = (ok) => (ok ? "yes" : "**no**");
