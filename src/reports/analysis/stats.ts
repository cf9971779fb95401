import { foldMean } from '../../profiles/sentiment';
import type { SentimentSplit } from './analysis.types';

/** VADER's customary thresholds on the compound score. */
export const NEGATIVE_AT_MOST = -0.05;
export const POSITIVE_AT_LEAST = 0.05;

/** The median; of an even count, the mean of the two middle values. Null when there are none. */
export function median(values: readonly number[]): number | null {
  if (!values.length) return null;
  const sorted = Float64Array.from(values).sort();
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Sentiment over the scored answers; a null score (an answer that could not be scored) is left out. */
export function sentimentSplit(scores: readonly (number | null)[]): SentimentSplit {
  const scored: number[] = [];
  let negative = 0;
  let positive = 0;
  for (const score of scores) {
    if (score === null || !Number.isFinite(score)) continue;
    scored.push(score);
    if (score <= NEGATIVE_AT_MOST) negative++;
    else if (score >= POSITIVE_AT_LEAST) positive++;
  }
  return { mean: foldMean(null, 0, scored).mean, negative, neutral: scored.length - negative - positive, positive, scored: scored.length };
}
