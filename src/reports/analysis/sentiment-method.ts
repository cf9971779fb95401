/**
 * How answers are scored for sentiment, named in every report's result: VADER's rules sentence by
 * sentence over VADER's English lexicon and the per-language lexicons of src/profiles/sentiment-lexicons.ts.
 */
export const SENTIMENT_METHOD = 'vader-rules+lexicons/v1';
