import { countWords } from '../../interviewers/default-interviewer';
import { sentimentOf } from '../../profiles/sentiment';
import { isVerbatimQuote, QUOTE_MIN_WORDS } from './quotes';
import { baseLanguage } from '../../languages/languages';
import { termOf, termRules, termRuns, type TermRules } from './tokenize';

/** A quote longer than this is a paragraph, not a quote. */
export const QUOTE_MAX_WORDS = 40;

/** What a quote should carry: some of a theme's terms, or the answer's sentiment (1 positive, -1 negative). */
export type Focus = { terms: ReadonlySet<string> } | { tone: 1 | -1 };

interface Span {
  start: number;
  end: number;
}

const segmenters = new Map<string, { sentence: Intl.Segmenter; word: Intl.Segmenter }>();
function segmentersFor(tag: string) {
  const language = baseLanguage(tag);
  let pair = segmenters.get(language);
  if (!pair) {
    const locale = Intl.Segmenter.supportedLocalesOf([language]).length ? language : 'und';
    pair = { sentence: new Intl.Segmenter(locale, { granularity: 'sentence' }), word: new Intl.Segmenter(locale, { granularity: 'word' }) };
    segmenters.set(language, pair);
  }
  return pair;
}

/** A span without the white space at its ends (indices move; the text is never touched). */
function trimmed(text: string, span: Span): Span {
  let { start, end } = span;
  while (start < end && /\s/.test(text[start])) start++;
  while (end > start && /\s/.test(text[end - 1])) end--;
  return { start, end };
}

function sentences(text: string, language: string): Span[] {
  const spans: Span[] = [];
  for (const { index, segment } of segmentersFor(language).sentence.segment(text)) {
    const span = trimmed(text, { start: index, end: index + segment.length });
    if (span.end > span.start) spans.push(span);
  }
  return spans;
}

function score(text: string, language: string, focus: Focus): number {
  if ('tone' in focus) return focus.tone * sentimentOf(text);
  const found = new Set(termRuns(text, language).flat().filter((term) => focus.terms.has(term)));
  return found.size;
}

/**
 * At most QUOTE_MAX_WORDS words of a span, cut where a word ends. It starts where the span starts,
 * unless the first of the focus terms would then be cut off: then a few words before that term.
 */
function fitted(text: string, span: Span, language: string, rules: TermRules, focus: Focus): Span {
  if (countWords(text.slice(span.start, span.end)) <= QUOTE_MAX_WORDS) return span;
  const words: Span[] = [];
  for (const { index, segment, isWordLike } of segmentersFor(language).word.segment(text.slice(span.start, span.end))) {
    if (isWordLike) words.push({ start: span.start + index, end: span.start + index + segment.length });
  }
  if (!words.length) return span;
  const longest = (from: number): Span => {
    // countWords only grows as a prefix grows, so the longest prefix that fits is found by bisection.
    let [low, high] = [from, words.length - 1];
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if (countWords(text.slice(words[from].start, words[middle].end)) <= QUOTE_MAX_WORDS) low = middle;
      else high = middle - 1;
    }
    return { start: words[from].start, end: words[low].end };
  };
  let window = longest(0);
  if ('terms' in focus) {
    const first = words.findIndex((word) => {
      const term = termOf(text.slice(word.start, word.end), rules);
      return term !== null && focus.terms.has(term);
    });
    if (first >= 0 && words[first].end > window.end) window = longest(Math.max(0, first - 3));
  }
  return window;
}

/**
 * A verbatim quote of an answer for a theme or a sentiment, or null when the answer has too few words
 * to quote (with `allowShort`, a description's excerpt, one word is enough): the sentence that best carries the focus (the first of equals), of at least three words,
 * cut to QUOTE_MAX_WORDS words at word boundaries. Only indices into the answer are moved, so the quote
 * is always a substring of it, with its markup, spacing and case as they are.
 */
export function excerpt(text: string, language: string, focus: Focus, options: { allowShort?: boolean } = {}): string | null {
  const minWords = options.allowShort ? 1 : QUOTE_MIN_WORDS;
  if (countWords(text) < minWords) return null;
  let best: Span | null = null;
  let bestScore = -Infinity;
  for (const span of sentences(text, language)) {
    const sentence = text.slice(span.start, span.end);
    if (countWords(sentence) < minWords) continue;
    const value = score(sentence, language, focus);
    if (value > bestScore) [best, bestScore] = [span, value];
  }
  const span = fitted(text, best ?? trimmed(text, { start: 0, end: text.length }), language, termRules(language), focus);
  const quote = text.slice(span.start, span.end);
  if (options.allowShort) return quote.trim() !== '' && text.includes(quote) ? quote : null;
  return isVerbatimQuote({ text: quote }, { role: 'interviewee', content: text }) ? quote : null;
}
