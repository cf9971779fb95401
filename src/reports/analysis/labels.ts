import { RUN_BREAK, type Corpus } from './corpus';
import { joinTerms } from './tokenize';

/** A label is found in at least this share of its theme's answers (the contract's "a quarter"). */
export const LABEL_MIN_SHARE = 0.25;
/** Phrases of 1 to this many words are candidates (the contract allows 4; 3 keeps them readable). */
const MAX_PHRASE = 3;
/** A longer phrase found in at least this share of the answers of a phrase it contains is the better label. */
const LONGER_WINS = 0.6;
const MAX_KEYPHRASES = 5;
/**
 * Phrases are counted on an even sample of at most this many of a group's answers (and of all answers,
 * for "elsewhere"): shares are what matter, and counting every phrase of 100,000 answers was half of a
 * large report's time. The label's own share is then counted on all the group's answers.
 */
export const PHRASE_SAMPLE = 1500;

/** At most `size` of `docs`, spread evenly over their order (all of them when fewer). */
export function evenly<T>(docs: readonly T[], size: number): T[] {
  if (docs.length <= size) return [...docs];
  return Array.from({ length: size }, (_, i) => docs[Math.floor((i * docs.length) / size)]);
}

/**
 * How many of `docs` contain the phrase `key`: at least `enough` or not, told as soon as it is known.
 * Its stems are matched in the tokens directly, not by numbering every phrase of every answer.
 */
function holdsIn(corpus: Corpus, docs: readonly number[], key: number, enough: number): boolean {
  const { tokens, starts, stemOf } = corpus;
  const stems = stemsOf(corpus, key);
  let count = 0;
  for (let j = 0; j < docs.length; j++) {
    if (count >= enough) return true;
    if (count + docs.length - j < enough) return false;
    const d = docs[j];
    const end = starts[d + 1] - stems.length;
    search: for (let i = starts[d]; i <= end; i++) {
      for (let n = 0; n < stems.length; n++) {
        const id = tokens[i + n];
        if (id === RUN_BREAK || stemOf[id] !== stems[n]) continue search;
      }
      count++;
      break;
    }
  }
  return count >= enough;
}

/** A phrase of consecutive terms (no punctuation, stop word or other dropped word between), by its stems. */
interface Phrase {
  key: number;
  /** Answers of the group that contain it. */
  answers: number;
}

/**
 * A phrase's number: its stems s1 [s2 [s3]] in base S (the corpus's stem count), offset by length so that
 * lengths never collide: s1; S + s1·S + s2; S + S² + (s1·S + s2)·S + s3 (exact while S³ < 2⁵³).
 * With `first`, only the phrases whose first stem is in it. When `emit` answers false, the phrase at
 * that place is followed no further.
 */
function forEachPhrase(corpus: Corpus, d: number, emit: (key: number, start: number, length: number) => boolean | void, first?: ReadonlySet<number>): void {
  const { tokens, starts, stemOf } = corpus;
  const S = corpus.stems.length;
  const end = starts[d + 1];
  for (let i = starts[d]; i < end; i++) {
    if (first && (tokens[i] === RUN_BREAK || !first.has(stemOf[tokens[i]]))) continue;
    let key = 0;
    for (let length = 1; length <= MAX_PHRASE && i + length <= end; length++) {
      const id = tokens[i + length - 1];
      if (id === RUN_BREAK) break;
      const stem = stemOf[id];
      key = length === 1 ? stem : length === 2 ? S + key * S + stem : S + S * S + (key - S) * S + stem;
      if (emit(key, i, length) === false) break;
    }
  }
}

/**
 * The phrases (1 to MAX_PHRASE stems) found in at least two of some answers, with how many contain each
 * (each answer counted once): a phrase of one answer names nothing, and is never looked up.
 */
export function phrasesOf(corpus: Corpus, docs: readonly number[]): Map<number, number> {
  // The stems first, in arrays: a phrase is in no more answers than each of its stems, so a phrase is
  // followed no further once it takes in a stem of one answer (most of a large study's rare words).
  const { tokens, starts, stemOf } = corpus;
  const stemAnswers = new Int32Array(corpus.stems.length);
  const lastAnswer = new Int32Array(corpus.stems.length).fill(-1);
  for (let j = 0; j < docs.length; j++) {
    for (let i = starts[docs[j]]; i < starts[docs[j] + 1]; i++) {
      if (tokens[i] === RUN_BREAK) continue;
      const stem = stemOf[tokens[i]];
      if (lastAnswer[stem] === j) continue;
      lastAnswer[stem] = j;
      stemAnswers[stem]++;
    }
  }
  const counts = new Map<number, number>();
  const seen = new Set<number>();
  for (const d of docs) {
    seen.clear();
    forEachPhrase(corpus, d, (key, start, length) => {
      if (stemAnswers[stemOf[tokens[start + length - 1]]] < 2) return false;
      if (length === 1 || seen.has(key)) return;
      seen.add(key);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    });
  }
  for (let stem = 0; stem < stemAnswers.length; stem++) if (stemAnswers[stem] >= 2) counts.set(stem, stemAnswers[stem]);
  return counts;
}

/** A phrase's stems from its number. */
function stemsOf(corpus: Corpus, key: number): number[] {
  const S = corpus.stems.length;
  if (key < S) return [key];
  if (key < S + S * S) return [Math.floor((key - S) / S), (key - S) % S];
  const rest = key - S - S * S;
  return [Math.floor(rest / (S * S)), Math.floor(rest / S) % S, rest % S];
}

/** How many keyphrase candidates are written out in one pass over the answers (more, rarely needed, one pass each). */
const WRITTEN_AT_ONCE = 24;

/**
 * Phrases as some answers most often write them (ties: the first seen), words joined as the language
 * writes them, with their terms: all the given keys in one pass over the answers.
 */
function writtenAll(corpus: Corpus, docs: readonly number[], keys: readonly number[]): Map<number, { text: string; terms: Set<string> }> {
  const wanted = new Set(keys);
  // Only the phrases that start with a wanted one's first stem are numbered: most positions start none.
  const first = new Set(keys.map((key) => stemsOf(corpus, key)[0]));
  // A form is its term ids t1 [t2 [t3]] as one number: Σ (tᵢ + 1)·(V + 1)^(i-1) (exact while (V + 1)³ < 2⁵³).
  const base = corpus.terms.length + 1;
  const forms = new Map<number, Map<number, number>>();
  for (const d of docs) {
    forEachPhrase(
      corpus,
      d,
      (k, start, length) => {
        if (!wanted.has(k)) return;
        let byForm = forms.get(k);
        if (!byForm) forms.set(k, (byForm = new Map()));
        let form = 0;
        for (let i = start + length - 1; i >= start; i--) form = form * base + corpus.tokens[i] + 1;
        byForm.set(form, (byForm.get(form) ?? 0) + 1);
      },
      first,
    );
  }
  const out = new Map<number, { text: string; terms: Set<string> }>();
  for (const key of keys) {
    let best = 0;
    let count = 0;
    for (const [form, n] of forms.get(key) ?? []) if (n > count) [best, count] = [form, n];
    const terms: string[] = [];
    for (let rest = best; rest > 0; rest = Math.floor(rest / base)) terms.push(corpus.terms[(rest % base) - 1]);
    out.set(key, { text: joinTerms(terms), terms: new Set(terms) });
  }
  return out;
}

export interface Label {
  /** The label: one phrase of 1 to MAX_PHRASE words as its answers write it. */
  label: string;
  /** Its stems joined with commas: two themes with the same key are one theme. */
  key: string;
  /** Its terms as written (for quoting the sentence that carries it). */
  terms: Set<string>;
  keyphrases: string[];
}

/**
 * The label of a group of answers: the phrase most typical of them and rare elsewhere (class-based TF-IDF,
 * as BERTopic labels its topics: its share of the group's answers times log(1 + all answers / answers
 * with it anywhere)), among the phrases found in at least LABEL_MIN_SHARE of the group's answers (and two).
 * A longer phrase wins over one it contains when it is found in most of its answers ("customer support"
 * rather than "support"). A phrase of a single excluded stem (a word of the product's name) is never a
 * label. Null when no phrase qualifies: the answers have nothing in common to name.
 */
export function labelOf(corpus: Corpus, docs: readonly number[], everywhere: ReadonlyMap<number, number>, total: number, excluded: ReadonlySet<number>): Label | null {
  const sample = evenly(docs, PHRASE_SAMPLE);
  const counts = phrasesOf(corpus, sample);
  const floor = Math.max(2, Math.ceil(LABEL_MIN_SHARE * sample.length));
  const ranked: { phrase: Phrase; score: number }[] = [];
  for (const [key, answers] of counts) {
    if (answers < 2 || (key < corpus.stems.length && excluded.has(key))) continue;
    const score = (answers / sample.length) * Math.log(1 + total / Math.max(answers, everywhere.get(key) ?? answers));
    ranked.push({ phrase: { key, answers }, score });
  }
  // Ties by the phrase's stems as text, not by their ids: ids follow the order the answers were read in.
  const texts = new Map<number, string>();
  const textOf = (key: number) => {
    let text = texts.get(key);
    if (text === undefined) texts.set(key, (text = stemsOf(corpus, key).map((stem) => corpus.stems[stem]).join(' ')));
    return text;
  };
  const byRank = (a: { phrase: Phrase; score: number }, b: { phrase: Phrase; score: number }) => b.score - a.score || (a.phrase.key === b.phrase.key ? 0 : textOf(a.phrase.key) < textOf(b.phrase.key) ? -1 : 1);
  // Counted on a sample: a phrase qualifies when its share of all the group's answers holds too (checked only for those in the running).
  const exact = new Map<number, boolean>();
  const holds = (phrase: Phrase) => {
    if (sample.length === docs.length) return true;
    let ok = exact.get(phrase.key);
    if (ok === undefined) exact.set(phrase.key, (ok = holdsIn(corpus, docs, phrase.key, Math.ceil(LABEL_MIN_SHARE * docs.length))));
    return ok;
  };
  const candidates = ranked.filter(({ phrase }) => phrase.answers >= floor).sort(byRank).map(({ phrase }) => phrase);
  let best = candidates.find(holds);
  if (!best) return null;
  let bestStems = stemsOf(corpus, best.key);
  // A longer phrase that contains the best one and is found in most of its answers says more.
  for (const phrase of candidates) {
    const stems = stemsOf(corpus, phrase.key);
    if (stems.length > bestStems.length && phrase.answers >= LONGER_WINS * best.answers && `,${stems.join(',')},`.includes(`,${bestStems.join(',')},`) && holds(phrase)) {
      [best, bestStems] = [phrase, stems];
    }
  }
  // The label and the leading keyphrase candidates written out in one pass; the rest one pass each, if ever reached.
  const leading = leadingFirst(ranked, byRank, 2 * WRITTEN_AT_ONCE);
  const forms = writtenAll(corpus, sample, [best.key, ...leading.head.slice(0, WRITTEN_AT_ONCE).map(({ phrase }) => phrase.key)]);
  const written = (key: number) => forms.get(key) ?? writtenAll(corpus, sample, [key]).get(key)!;
  const label = written(best.key);
  const keyphrases: string[] = [label.text];
  for (const { phrase } of leading) {
    if (keyphrases.length === MAX_KEYPHRASES) break;
    const text = written(phrase.key).text;
    if (!keyphrases.some((k) => k.includes(text) || text.includes(k))) keyphrases.push(text);
  }
  return { label: label.text, key: bestStems.join(','), terms: label.terms, keyphrases };
}

/**
 * Items in the order `compare` gives (highest score first), sorting only the `size` highest scored
 * until more are asked for: a group's thousands of phrases were sorted whole for the few keyphrases
 * read off the top. The order is the full sort's, since the comparison ranks by score first.
 */
function leadingFirst<T extends { score: number }>(items: T[], compare: (a: T, b: T) => number, size: number): { head: T[]; [Symbol.iterator](): Iterator<T> } {
  if (items.length <= size) {
    const all = items.sort(compare);
    return { head: all, [Symbol.iterator]: () => all[Symbol.iterator]() };
  }
  const cut = Float64Array.from(items, (item) => item.score).sort()[items.length - size];
  const head = items.filter((item) => item.score >= cut).sort(compare);
  return {
    head,
    *[Symbol.iterator]() {
      yield* head;
      yield* items.filter((item) => item.score < cut).sort(compare);
    },
  };
}

/** How many answers contain each phrase, over all the answers a set of groups was found among (the "elsewhere" of labelOf). */
export function phraseSpreadOf(corpus: Corpus, docs: readonly number[]): { spread: Map<number, number>; total: number } {
  const sample = evenly(docs, PHRASE_SAMPLE * 2);
  return { spread: phrasesOf(corpus, sample), total: sample.length };
}
