import { baseLanguage } from '../../languages/languages';
import { stopWordsFor } from './stopwords';

/**
 * Scripts written without spaces between words: only a dictionary-based segmenter finds their words.
 * Intl.Segmenter (ICU, built into Node) does; a regular expression would take a whole clause for a word.
 */
const UNSPACED = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}]/u;
const HIRAGANA_ONLY = /^[\p{sc=Hiragana}\u30fc]+$/u;
const LETTER = /\p{L}/u;
/** A word of a spaced script: letters, marks and digits, joined inside by apostrophes or hyphens. */
const WORD = /[\p{L}\p{M}\p{N}]+(?:['’-][\p{L}\p{M}\p{N}]+)*/uy;
/** What lies before the next word (sticky, like WORD: the scan reads positions, not match arrays). */
const NOT_WORD = /[^\p{L}\p{M}\p{N}]*/uy;
/** What may lie between two words of one phrase: white space and invisible direction or joiner marks. */
const BLANK_CHARS = '\\s\\u200b-\\u200f\\u202a-\\u202e\\u2060\\u2066-\\u2069\\ufeff';
const BLANK = new RegExp(`^[${BLANK_CHARS}]*$`, 'u');
const BLANK_RUN = new RegExp(`[${BLANK_CHARS}]*`, 'uy');
const MARKUP = /<\/?[a-zA-Z][^<>]*>|&(?:[a-zA-Z]+|#\d+|#x[0-9a-fA-F]+);/g;
const NON_ASCII = /[^\p{ASCII}]/u;
const ARABIC_MARKS = /[\u064b-\u065f\u0670\u0640]/g;
/** Elided articles and pronouns (`l'application`, `dell'app`): the word is what follows the apostrophe. */
const ELISION: Readonly<Record<string, RegExp>> = {
  fr: /^(?:[cdjlmnst]|qu|jusqu|lorsqu|puisqu|quoiqu)'(?=\p{L})/u,
  it: /^(?:[cdlmnstv]|all|dall|dell|nell|sull|coll|quell|quest|un|sant|tutt)'(?=\p{L})/u,
  ca: /^(?:[dlmnst])'(?=\p{L})/u,
};

const segmenters = new Map<string, Intl.Segmenter>();
function wordSegmenter(language: string): Intl.Segmenter {
  let segmenter = segmenters.get(language);
  if (!segmenter) {
    segmenter = new Intl.Segmenter(Intl.Segmenter.supportedLocalesOf([language]).length ? language : 'und', { granularity: 'word' });
    segmenters.set(language, segmenter);
  }
  return segmenter;
}

/** How a language's words are compared: the rules one tag's words go through. */
export interface TermRules {
  language: string;
  stopWords: ReadonlySet<string> | null;
  /**
   * Words already seen under these rules → their terms. A study's answers repeat a small vocabulary,
   * and normalising, lower-casing and testing each word again was a tenth of a 100,000-answer report.
   */
  memo?: Map<string, string | null>;
}

/** How many words a memo holds at most: a vocabulary's common words, not every rare one of a large study. */
const MEMO_LIMIT = 50_000;

/** Rules that remember the terms of the words they have seen (for one long pass, such as a corpus's). */
export function rememberingTermRules(tag: string): TermRules {
  return { ...termRules(tag), memo: new Map() };
}

export function termRules(tag: string): TermRules {
  return { language: baseLanguage(tag), stopWords: stopWordsFor(tag) };
}

/**
 * The comparable form of one word, or null when it carries no topic: a stop word, a number, a stray
 * letter, or (Japanese) a word in hiragana alone, which is nearly always a particle or an inflection
 * while content words are written in kanji or katakana.
 */
export function termOf(word: string, rules: TermRules): string | null {
  const { memo } = rules;
  if (!memo) return termOfWord(word, rules);
  let term = memo.get(word);
  if (term === undefined) {
    term = termOfWord(word, rules);
    if (memo.size < MEMO_LIMIT) memo.set(word, term);
  }
  return term;
}

function termOfWord(word: string, rules: TermRules): string | null {
  const { language, stopWords } = rules;
  let term = NON_ASCII.test(word) ? word.normalize('NFKC') : word;
  term = language === 'tr' || language === 'az' ? term.toLocaleLowerCase('tr') : term.toLowerCase();
  if (term.includes('’')) term = term.replaceAll('’', "'");
  if (stopWords?.has(term)) return null;
  const elision = ELISION[language];
  if (elision) term = term.replace(elision, '');
  else if (language === 'en' && term.endsWith("'s")) term = term.slice(0, -2);
  else if (language === 'ar') term = term.replace(ARABIC_MARKS, '');
  if (stopWords?.has(term) || !LETTER.test(term)) return null;
  if (term.length === 1 && !UNSPACED.test(term)) return null;
  if (language === 'ja' && HIRAGANA_ONLY.test(term)) return null;
  return term;
}

/**
 * Calls `emit` with each term of `text` in order, and with null where a phrase cannot continue: at a
 * stop word or any other dropped word, at punctuation, at an emoji. Markup counts as white space.
 */
export function forEachTerm(text: string, rules: TermRules, emit: (term: string | null) => void): void {
  const plain = text.includes('<') || text.includes('&') ? text.replace(MARKUP, ' ') : text;
  if (UNSPACED.test(plain)) {
    for (const segment of wordSegmenter(rules.language).segment(plain)) {
      if (segment.isWordLike) emit(termOf(segment.segment, rules));
      else if (!BLANK.test(segment.segment)) emit(null);
    }
    return;
  }
  // Word by word with sticky expressions and test(), which allocate nothing, rather than exec(), whose
  // match arrays were a fifth of a large report's garbage. The same words as a global WORD.exec finds:
  // a word starts at the first letter, mark or digit after the last one.
  let end = 0;
  for (;;) {
    NOT_WORD.lastIndex = end;
    NOT_WORD.test(plain);
    const start = NOT_WORD.lastIndex;
    WORD.lastIndex = start;
    if (!WORD.test(plain)) return;
    if (start > end) {
      // Only blanks between the two words: the phrase may go on.
      BLANK_RUN.lastIndex = end;
      BLANK_RUN.test(plain);
      if (BLANK_RUN.lastIndex !== start) emit(null);
    }
    end = WORD.lastIndex;
    emit(termOf(plain.slice(start, end), rules));
  }
}

/** The terms of a text as runs: the stretches between breaks, each a candidate phrase. */
export function termRuns(text: string, tag: string): string[][] {
  const runs: string[][] = [];
  let run: string[] = [];
  forEachTerm(text, termRules(tag), (term) => {
    if (term !== null) run.push(term);
    else if (run.length) {
      runs.push(run);
      run = [];
    }
  });
  if (run.length) runs.push(run);
  return runs;
}

/** Joins a phrase's terms as the language writes them: no space between words of unspaced scripts. */
export function joinTerms(terms: readonly string[]): string {
  let phrase = terms[0] ?? '';
  for (let i = 1; i < terms.length; i++) {
    const unspaced = UNSPACED.test(terms[i - 1].slice(-1)) && UNSPACED.test(terms[i][0]);
    phrase += (unspaced ? '' : ' ') + terms[i];
  }
  return phrase;
}
