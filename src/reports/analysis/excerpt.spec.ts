import { countWords } from '../../interviewers/default-interviewer';
import { excerpt, QUOTE_MAX_WORDS } from './excerpt';
import { isVerbatimQuote } from './quotes';

const verbatim = (text: string | null, answer: string) => text !== null && isVerbatimQuote({ text }, { role: 'interviewee', content: answer });

describe('excerpt', () => {
  it('quotes the sentence that carries the most of the theme terms', () => {
    const answer = 'We onboarded quickly. The invoice total and the price surprised us. Otherwise fine.';
    expect(excerpt(answer, 'en', { terms: new Set(['price', 'invoice']) })).toBe('The invoice total and the price surprised us.');
  });

  it('quotes the sentence that carries the sentiment asked for', () => {
    const answer = 'It crashes a lot and I hate that. But the new dashboard is wonderful!';
    expect(excerpt(answer, 'en', { tone: 1 })).toBe('But the new dashboard is wonderful!');
    expect(excerpt(answer, 'en', { tone: -1 })).toBe('It crashes a lot and I hate that.');
  });

  it('never quotes an answer under three words', () => {
    expect(excerpt('Too expensive.', 'en', { tone: -1 })).toBeNull();
    expect(excerpt('  <b>Great</b>  stuff ', 'en', { tone: 1 })).toBeNull();
  });

  it('skips sentences under three words when the answer has longer ones', () => {
    expect(excerpt('Price. Yes. The price is far too high.', 'en', { terms: new Set(['price']) })).toBe('The price is far too high.');
  });

  it('falls back to the whole answer when no sentence alone has three words', () => {
    expect(excerpt('Price? Too high! Really.', 'en', { terms: new Set(['price']) })).toBe('Price? Too high! Really.');
  });

  it('cuts a long sentence to at most 40 words at a word boundary, keeping the text as it is', () => {
    const words = Array.from({ length: 100 }, (_, i) => `word${i}`);
    const answer = `  ${words.join('  ')}.`;
    const quote = excerpt(answer, 'en', { tone: 1 });
    expect(quote).toBe(words.slice(0, QUOTE_MAX_WORDS).join('  '));
    expect(verbatim(quote, answer)).toBe(true);
  });

  it('moves the window to a theme term that a cut from the start would lose', () => {
    const words = Array.from({ length: 100 }, (_, i) => (i === 70 ? 'invoice' : `word${i}`));
    const answer = words.join(' ');
    const quote = excerpt(answer, 'en', { terms: new Set(['invoice']) });
    // Three words of context before the term, then on to the end (33 words: within the limit).
    expect(quote).toBe(words.slice(67).join(' '));
    expect(verbatim(quote, answer)).toBe(true);
  });

  it('cuts unspaced Chinese by its words', () => {
    const answer = '价格太贵了'.repeat(30);
    const quote = excerpt(answer, 'zh', { terms: new Set(['价格']) });
    expect(quote).not.toBeNull();
    expect(countWords(quote!)).toBeLessThanOrEqual(QUOTE_MAX_WORDS);
    expect(countWords(quote!)).toBeGreaterThan(30);
    expect(verbatim(quote, answer)).toBe(true);
  });

  it('keeps markup, emoji, direction marks and odd spacing inside the quote as they are', () => {
    const answer = '\u200fthe <b>price</b>  is 😡 way\ttoo high\n\nand rising';
    const quote = excerpt(answer, 'en', { terms: new Set(['price']) });
    expect(quote).toBe('\u200fthe <b>price</b>  is 😡 way\ttoo high');
    expect(verbatim(quote, answer)).toBe(true);
  });
});
