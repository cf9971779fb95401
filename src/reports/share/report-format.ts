/** Numbers and times as the shared report prints them: plain words, UTC, "–" for what is not known. */

export const NOT_KNOWN = '–';

// One formatter each, made once: the page is rendered on every view and prints hundreds of numbers.
const COUNT = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 0 });
const ONE_DECIMAL = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1 });

/** 1234 → "1,234". */
export function formatCount(n: number): string {
  return COUNT.format(n);
}

/** 0.4166 → "42%"; null → "–". */
export function formatPercent(share: number | null): string {
  return share === null || !Number.isFinite(share) ? NOT_KNOWN : `${Math.round(share * 100)}%`;
}

/**
 * Counts as whole percentages of their sum that add up to exactly 100 (largest remainder; ties to the
 * earlier), so that a legend of parts never reads 101 %. All zeros when the sum is 0.
 */
export function wholePercents(counts: readonly number[]): number[] {
  const total = counts.reduce((a, b) => a + b, 0);
  if (!(total > 0)) return counts.map(() => 0);
  const exact = counts.map((count) => (count * 100) / total);
  const percents = exact.map(Math.floor);
  let left = 100 - percents.reduce((a, b) => a + b, 0);
  const byRemainder = exact.map((e, i) => i).sort((a, b) => exact[b] - percents[b] - (exact[a] - percents[a]) || a - b);
  for (const i of byRemainder) {
    if (left <= 0) break;
    percents[i] += 1;
    left -= 1;
  }
  return percents;
}

/**
 * A duration: whole seconds under two minutes ("45 s", "1 min 5 s" reads worse than "65 s"), then minutes
 * with one decimal under ten ("5.5 min"), whole minutes above ("13 min"); null → "–". A one-minute
 * study showed "0 min" when minutes were rounded.
 */
export function formatMinutes(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return NOT_KNOWN;
  if (seconds < 120) return `${COUNT.format(Math.round(seconds))} s`;
  const minutes = seconds / 60;
  return `${(minutes < 10 ? ONE_DECIMAL : COUNT).format(minutes)} min`;
}

/** A median word count, which may fall between two answers ("12.5"); null → "–". */
export function formatWords(words: number | null): string {
  return words === null || !Number.isFinite(words) ? NOT_KNOWN : ONE_DECIMAL.format(words);
}

/** A compound sentiment score with its sign ("+0.21", "−0.35", "0.00"); null → "–". */
export function formatMean(mean: number | null): string {
  if (mean === null || !Number.isFinite(mean)) return NOT_KNOWN;
  const text = Math.abs(mean).toFixed(2);
  if (text === '0.00') return text;
  return `${mean > 0 ? '+' : '\u2212'}${text}`;
}

/** "1 answer", "2 answers". */
export function plural(n: number, one: string, many: string): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}
