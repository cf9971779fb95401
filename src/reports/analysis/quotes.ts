import { countWords } from '../../interviewers/default-interviewer';
import type { Quote } from './analysis.types';

/** A quote shorter than this says too little to stand for an answer (the contract's minimum). */
export const QUOTE_MIN_WORDS = 3;

/**
 * Whether `quote.text` may be shown as a quote of `turn`: the turn is the interviewee's, and the text is
 * a substring of it, character for character, of at least three words. Nothing is normalised (not
 * case, not white space, not quotation marks): a quote a reader checks against the transcript must be
 * found there as it is printed.
 */
export function isVerbatimQuote(quote: Pick<Quote, 'text'>, turn: { role: string; content: string } | undefined): boolean {
  if (!turn || turn.role !== 'interviewee') return false;
  const text = quote.text;
  return text.trim() !== '' && countWords(text) >= QUOTE_MIN_WORDS && turn.content.includes(text);
}
