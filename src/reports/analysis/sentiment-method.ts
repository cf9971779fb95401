/**
 * How answers are scored for sentiment, named in every report's result: VADER's rules sentence by
 * sentence over VADER's English lexicon with ML-SentiCon's beside it, and the per-language lexicons of
 * src/profiles/sentiment-lexicons.ts, looked up by word and inflection (v1 looked some up by stem), and
 * English phrases whose feeling is not their words' (v3: "I won't be back", "to die for").
 */
export { SENTIMENT_METHOD } from '../../profiles/sentiment';
