/** How the benchmark sums up and writes its numbers: medians of rounds, figures as the report prints them. */

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** A figure with thousands separators and `digits` decimals; "–" for none. */
export const fmt = (x: number, digits = 0) => (Number.isFinite(x) ? x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '–');
export const ms = (x: number) => fmt(x, x < 10 ? 2 : x < 100 ? 1 : 0);
