export const SENTIMENT_METHOD = 'vader';
