// The three scales the charts use, with d3-scale's arithmetic (linear with nice ticks, band,
// point). d3-scale's linear scale brings d3-interpolate, d3-color and d3-format for colour
// ranges and tick formats the charts never use (about 9 KiB gzip on every dashboard page);
// scales.test.ts checks these against @visx/scale.

const E10 = Math.sqrt(50);
const E5 = Math.sqrt(10);
const E2 = Math.sqrt(2);

function tickSpec(start: number, stop: number, count: number): [number, number, number] {
  const step = (stop - start) / Math.max(0, count);
  const power = Math.floor(Math.log10(step));
  const error = step / 10 ** power;
  const factor = error >= E10 ? 10 : error >= E5 ? 5 : error >= E2 ? 2 : 1;
  let i1: number;
  let i2: number;
  let inc: number;
  if (power < 0) {
    inc = 10 ** -power / factor;
    i1 = Math.round(start * inc);
    i2 = Math.round(stop * inc);
    if (i1 / inc < start) ++i1;
    if (i2 / inc > stop) --i2;
    inc = -inc;
  } else {
    inc = 10 ** power * factor;
    i1 = Math.round(start / inc);
    i2 = Math.round(stop / inc);
    if (i1 * inc < start) ++i1;
    if (i2 * inc > stop) --i2;
  }
  if (i2 < i1 && 0.5 <= count && count < 2) return tickSpec(start, stop, count * 2);
  return [i1, i2, inc];
}

/** Evenly spaced round values between start and stop (d3-array's ticks). */
export function ticks(start: number, stop: number, count: number): number[] {
  if (!(count > 0)) return [];
  if (start === stop) return [start];
  const [i1, i2, inc] = tickSpec(start, stop, count);
  if (!(i2 >= i1)) return [];
  return Array.from({ length: i2 - i1 + 1 }, (_, i) => (inc < 0 ? (i1 + i) / -inc : (i1 + i) * inc));
}

/** The domain widened to round values, as d3's linear.nice(10). */
function nice(start: number, stop: number, count = 10): [number, number] {
  let prestep: number | undefined;
  for (let i = 0; i < 10; i++) {
    const step = tickSpec(start, stop, count)[2];
    if (step === prestep) break;
    if (step > 0) {
      start = Math.floor(start / step) * step;
      stop = Math.ceil(stop / step) * step;
    } else if (step < 0) {
      start = Math.ceil(start * step) / step;
      stop = Math.floor(stop * step) / step;
    } else break;
    prestep = step;
  }
  return [start, stop];
}

export type LinearScale = ((value: number) => number) & { ticks(count: number): number[] };

export function linearScale({ domain, range, nice: round = false }: { domain: [number, number]; range: [number, number]; nice?: boolean }): LinearScale {
  const [d0, d1] = round ? nice(domain[0], domain[1]) : domain;
  const [r0, r1] = range;
  const scale = (value: number) => (d1 === d0 ? (r0 + r1) / 2 : r0 + ((value - d0) / (d1 - d0)) * (r1 - r0));
  return Object.assign(scale, { ticks: (count: number) => ticks(d0, d1, count) });
}

export type BandScale = ((label: string) => number | undefined) & { bandwidth(): number };

function ordinal(labels: string[], range: [number, number], paddingInner: number, paddingOuter: number): BandScale {
  const index = new Map(labels.map((label, i) => [label, i]));
  const n = labels.length;
  const [r0, r1] = range;
  const step = (r1 - r0) / Math.max(1, n - paddingInner + paddingOuter * 2);
  const start = r0 + (r1 - r0 - step * (n - paddingInner)) * 0.5;
  const scale = (label: string) => {
    const i = index.get(label);
    return i === undefined ? undefined : start + step * i;
  };
  return Object.assign(scale, { bandwidth: () => step * (1 - paddingInner) });
}

/** Bars side by side, `padding` of a step between and around them (d3's scaleBand). */
export const bandScale = ({ domain, range, padding }: { domain: string[]; range: [number, number]; padding: number }) =>
  ordinal(domain, range, padding, padding);

/** Points spread evenly, `padding` steps before the first and after the last (d3's scalePoint). */
export const pointScale = ({ domain, range, padding }: { domain: string[]; range: [number, number]; padding: number }) => ordinal(domain, range, 1, padding);
