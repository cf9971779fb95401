/** How answers are scored for sentiment, named in every report's result (see src/profiles/sentiment.ts). */
export const SENTIMENT_METHOD = 'vader';
