import { SentimentIntensityAnalyzer } from 'vader-sentiment';

/**
 * The sentiment of one answer, from -1 (negative) to 1 (positive): VADER's compound score
 * (vader-sentiment, Apache-2.0). Chosen because its score is already normalised to that range, and it
 * reads negation ("not bad"), contrast ("but"), intensifiers, capitals, punctuation and emoji, which
 * short spoken-style answers are full of. It knows English only: other languages score near 0.
 */
export function sentimentOf(text: string): number {
  return SentimentIntensityAnalyzer.polarity_scores(text).compound;
}

/**
 * The answer's score when it can be scored: VADER reads English only, so an answer given in an
 * interview held in another language is not scored (null), rather than counted as a neutral 0.
 * `language` is the invite's (null: an interview from before languages were recorded, held in English).
 */
export function answerSentiment(text: string, language: string | null): number | null {
  return language === null || language === 'en' || language.startsWith('en-') ? sentimentOf(text) : null;
}

/** Folds new scores into a mean over `count` earlier ones: the mean over all of them. */
export function foldMean(mean: number | null, count: number, scores: readonly number[]): { mean: number | null; count: number } {
  const total = count + scores.length;
  if (total === 0) return { mean: null, count: 0 };
  const sum = (mean ?? 0) * count + scores.reduce((a, b) => a + b, 0);
  // Four decimals: finer is noise, and it keeps the stored JSON short.
  return { mean: Math.round((sum / total) * 10_000) / 10_000, count: total };
}
