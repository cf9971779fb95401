import { baseLanguage } from '../languages/languages';
import { lexiconFor, valenceOf, type Lexicon } from './sentiment-lexicons';

/** How answerSentiment scores, named in reports and stored with each score (see TurnMeta.sentimentMethod). */
export const SENTIMENT_METHOD = 'vader-rules+lexicons/v3';

/** VADER's constants: a negated word's valence is scaled by this; a booster adds this much. */
const NEGATION_SCALAR = -0.74;
const BOOSTER = 0.293;
/** Before a contrast word ("but") a sentence's words weigh this much, after it CONTRAST_AFTER (VADER's). */
const CONTRAST_BEFORE = 0.5;
const CONTRAST_AFTER = 1.5;
/** How far back a negation reaches, in words (VADER's three). */
const NEGATION_REACH = 3;
/** "too" before a word of no valence ("too high", "too small"): a complaint. */
const TOO_VALENCE = -1.5;
/** VADER's normalisation: compound = sum / sqrt(sum² + ALPHA). */
const ALPHA = 15;
const EXCLAMATION = 0.292;
const LONGEST_UNSPACED_ENTRY = 8;
const WORD = /[\p{L}\p{M}\p{N}]+(?:['’][\p{L}\p{M}]+)*|[,;:、，；：]/gu;
/** A clause break: a negation does not reach past it ("Nada, me encanta"). */
const BREAK = /^[,;:、，；：]$/u;

const sentenceSegmenters = new Map<string, Intl.Segmenter>();
/** A text's sentences: as the language's rules cut them, and at ellipses, which speakers use as full stops. */
function sentences(text: string, language: string): string[] {
  let segmenter = sentenceSegmenters.get(language);
  if (!segmenter) sentenceSegmenters.set(language, (segmenter = new Intl.Segmenter(Intl.Segmenter.supportedLocalesOf([language]).length ? language : 'und', { granularity: 'sentence' })));
  const parts: string[] = [];
  for (const { segment } of segmenter.segment(text)) for (const part of segment.split(/…|\.{3,}/u)) if (part.trim()) parts.push(part);
  return parts;
}

/** A sentence's words: as written (lower case) in spaced scripts; in unspaced ones, the longest lexicon entry at each place, else one character. */
function wordsOf(sentence: string, lexicon: Lexicon): string[] {
  const text = sentence.normalize('NFKC').toLowerCase();
  if (!lexicon.unspaced) return text.match(WORD) ?? [];
  const known = (word: string) => lexicon.words.has(word) || lexicon.negations.has(word) || lexicon.boosters.has(word) || lexicon.contrasts.has(word);
  const words: string[] = [];
  for (let i = 0; i < text.length; ) {
    let length = Math.min(LONGEST_UNSPACED_ENTRY, text.length - i);
    while (length > 1 && !known(text.slice(i, i + length))) length--;
    words.push(text.slice(i, i + length));
    i += length;
  }
  return words.filter((word) => /[\p{L}\p{N}]/u.test(word) || BREAK.test(word));
}

/** What one hoped for or expected, or what should or could have been, is what one did not get: "I expected better", "I had hoped for more". */
const UNMET = new Set(['expect', 'expected', 'expecting', 'hope', 'hoped', 'hoping', 'wish', 'wished', 'wishing']);
const COUNTERFACTUAL = /\b(?:would|could|should|might)(?: not)? have\b/u;
/** A positive word under UNMET or COUNTERFACTUAL in its clause weighs this many times its valence (a mild complaint). */
const UNMET_SCALAR = -0.5;

/**
 * English phrases whose feeling is not the sum of their words', as VADER keeps special cases ("kiss of
 * death"): each becomes one token of the given valence. An intention to come back, or not, is how a
 * customer most often says how it went ("I won't be back", "we'll go again", "I won't renew"); VADER has
 * no word for it ("return" counts only when negated: in customer research it is mostly a product sent back).
 * `negated`: its valence when a negation is anywhere before it in its clause ("I don't think we'll be going
 * back"), not only within three words; not coming back says as much as coming back. Without it, no
 * negation turns the phrase: they say the opposite of their words ("to die for", "couldn't be happier",
 * "don't waste your time").
 */
const ENGLISH_PHRASES: readonly { pattern: RegExp; valence: number; negated?: number }[] = [
  { pattern: /\bnever (?:ever )?again\b/gu, valence: -2 },
  { pattern: /\b(?:go|goes|going|went|come|comes|coming|came|be|head|heading|running) (?:right )?back\b|\b(?:go|going|come|coming|visit|visiting|order|ordering|eat|eating) (?:there |here )?again\b|\brenew(?:ing)?\b/gu, valence: 1.5, negated: -1.5 },
  // "Return" is mostly a product sent back: only "I won't return" says something.
  { pattern: /\breturn(?:ing)?\b/gu, valence: 0, negated: -1.5 },
  // "Like" is a filler in speech (see NOT_FEELINGS) but a feeling after its subject; "I'd like" is a wish.
  { pattern: /\b(?:i|we|they|you'll) (?:really |also |just |do |did |still |actually )?(?:like|liked)\b/gu, valence: 1.5, negated: -1.5 },
  { pattern: /\bto die for\b|\bout of this world\b|\b(?:could|can)(?:n't|n’t|not| not) be (?:any )?happier\b|\b(?:can't|cant|cannot|can’t) say enough good\b/gu, valence: 2.5 },
  { pattern: /\b(?:can't|cant|cannot|can’t) wait\b|\bcheck (?:it|them|this place) out\b|\bthumbs up\b/gu, valence: 1.5 },
  { pattern: /\bwast(?:e|ed|ing) (?:of )?(?:your|my|our|their|his|her)? ?(?:time|money)\b|\bthumbs down\b|\bgave up\b|\bstay away\b/gu, valence: -2 },
  { pattern: /\belsewhere\b|\b(?:took|takes|take|taking) (?:her |him |them |us |me )?forever\b/gu, valence: -1.5 },
  { pattern: /\b(?:zero|no|0|one|1|two|2) stars?\b/gu, valence: -2 },
  { pattern: /\b(?:four|4|five|5) stars\b/gu, valence: 2 },
];
/** A phrase's token: a character no word holds, then its index in ENGLISH_PHRASES. */
const PHRASE_MARK = '\u0001';

/** The words with each English phrase replaced by its token. */
function withPhrases(words: string[]): string[] {
  let joined = words.join(' ');
  if (!joined.includes(' ')) return words;
  ENGLISH_PHRASES.forEach(({ pattern }, i) => (joined = joined.replace(pattern, `${PHRASE_MARK}${i}`)));
  return joined.split(' ').filter(Boolean);
}

/**
 * One sentence's valence sum and whether any word of it carries one, VADER's way: each word's valence,
 * strengthened by a booster before it, turned by a negation within three words before it (in Japanese:
 * right after it), weighed half before a contrast word and one and a half after it, and "!" adding
 * emphasis. In English "too" before a word of no valence is a complaint ("way too high"), and a positive
 * word after "expected", "hoped" or "should have" in its clause is what was missed (SO-CAL's irrealis,
 * Taboada et al. 2011: on the Amazon and IMDb sentence sets this turned more errors right than wrong).
 */
function scoreSentence(sentence: string, lexicon: Lexicon, english: boolean): { sum: number; hits: number; words: number } {
  const words = english ? withPhrases(wordsOf(sentence, lexicon)) : wordsOf(sentence, lexicon);
  const contrastAt = words.findIndex((word) => lexicon.contrasts.has(word));
  let sum = 0;
  let hits = 0;
  words.forEach((word, i) => {
    if (BREAK.test(word) || lexicon.negations.has(word) || lexicon.boosters.has(word) || lexicon.contrasts.has(word)) return;
    const phrase = word.startsWith(PHRASE_MARK) ? ENGLISH_PHRASES[Number(word.slice(1))] : undefined;
    if (phrase) {
      const before = words.slice(0, i);
      const clause = before.slice(before.findLastIndex((w) => BREAK.test(w)) + 1);
      const valence = phrase.negated !== undefined && clause.some((w) => lexicon.negations.has(w)) ? phrase.negated : phrase.valence;
      if (valence !== 0) {
        hits++;
        sum += valence;
      }
      return;
    }
    let valence = valenceOf(lexicon, word);
    if (english && words[i - 1] === 'too' && !(valence && valence > 0)) valence = TOO_VALENCE;
    if (valence === undefined) return;
    hits++;
    if (english && valence > 0) {
      const before = words.slice(0, i);
      const clause = before.slice(before.findLastIndex((w) => BREAK.test(w)) + 1);
      if (clause.some((w) => UNMET.has(w)) || COUNTERFACTUAL.test(clause.join(' '))) valence *= UNMET_SCALAR;
    }
    for (let back = 1; back <= 2 && i - back >= 0; back++) if (lexicon.boosters.has(words[i - back])) valence += Math.sign(valence) * BOOSTER;
    const clause = (from: number, to: number) => {
      const span = words.slice(Math.max(0, from), Math.max(0, to));
      return from < i ? span.slice(span.findLastIndex((w) => BREAK.test(w)) + 1) : span.slice(0, (span.findIndex((w) => BREAK.test(w)) + 1 || span.length + 1) - 1);
    };
    const negated = lexicon.unspaced
      ? clause(i + 1, i + 3).some((next) => lexicon.negations.has(next)) || clause(i - 2, i).some((before) => lexicon.negations.has(before))
      : clause(i - NEGATION_REACH, i).some((before) => lexicon.negations.has(before));
    if (negated) valence *= NEGATION_SCALAR;
    if (contrastAt >= 0) valence *= i < contrastAt ? CONTRAST_BEFORE : CONTRAST_AFTER;
    sum += valence;
  });
  const exclamations = Math.min(3, (sentence.match(/[!！]/gu) ?? []).length);
  if (sum !== 0) sum += Math.sign(sum) * exclamations * EXCLAMATION;
  return { sum, hits, words: words.filter((word) => /\p{L}/u.test(word)).length };
}

/**
 * The sentiment of one answer, from -1 (negative) to 1 (positive): 0 when no word of it carries any
 * ("No.", "We use it on Mondays."), null only when no score is possible (a language without a lexicon,
 * no word at all: the contract's "no scorable word"). Each sentence is scored on its
 * own (VADER's compound: sum / sqrt(sum² + 15)) and the answer's score is the mean over the sentences
 * that carry sentiment, so that a long answer's one complaint is not drowned, nor one polite closing
 * sentence taken for the whole. Lexicons: see sentiment-lexicons.ts.
 */
export function answerSentiment(text: string, language: string | null): number | null {
  const base = baseLanguage(language ?? 'en');
  const lexicon = lexiconFor(base);
  if (!lexicon) return null;
  let total = 0;
  let scored = 0;
  let words = 0;
  for (const sentence of sentences(text, base)) {
    const { sum, hits, words: count } = scoreSentence(sentence, lexicon, base === 'en');
    words += count;
    if (!hits) continue;
    total += sum / Math.sqrt(sum * sum + ALPHA);
    scored++;
  }
  if (!scored) return words ? 0 : null;
  return Math.round((total / scored) * 10_000) / 10_000;
}

/** The sentiment of a text (a quote's sentence), 0 when it carries none. */
export function sentimentOf(text: string, language = 'en'): number {
  return answerSentiment(text, language) ?? 0;
}

/** Folds new scores into a mean over `count` earlier ones: the mean over all of them. */
export function foldMean(mean: number | null, count: number, scores: readonly number[]): { mean: number | null; count: number } {
  const total = count + scores.length;
  if (total === 0) return { mean: null, count: 0 };
  const sum = (mean ?? 0) * count + scores.reduce((a, b) => a + b, 0);
  // Four decimals: finer is noise, and it keeps the stored JSON short.
  return { mean: Math.round((sum / total) * 10_000) / 10_000, count: total };
}
