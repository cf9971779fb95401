import { RUN_BREAK, type Corpus } from './corpus';
import { joinTerms } from './tokenize';

/** A label is found in at least this share of its theme's answers (the contract's "a quarter"). */
export const LABEL_MIN_SHARE = 0.25;
/** Phrases of 1 to this many words are candidates (the contract allows 4; 3 keeps them readable). */
const MAX_PHRASE = 3;
/** A longer phrase found in at least this share of the answers of a phrase it contains is the better label. */
const LONGER_WINS = 0.6;
const MAX_KEYPHRASES = 5;

/** A phrase of consecutive terms (no punctuation, stop word or other dropped word between), by its stems. */
interface Phrase {
  key: string;
  stems: number[];
  /** Answers of the group that contain it. */
  answers: number;
  /** The way it is most often written in them (term ids), and how often each way was seen. */
  forms: Map<string, number>;
}

/** Phrases (1 to MAX_PHRASE stems) of some answers, each counted once per answer. */
export function phrasesOf(corpus: Corpus, docs: readonly number[]): Map<string, Phrase> {
  const { tokens, starts, stemOf } = corpus;
  const phrases = new Map<string, Phrase>();
  const seen = new Set<string>();
  for (const d of docs) {
    seen.clear();
    for (let i = starts[d]; i < starts[d + 1]; i++) {
      for (let length = 1; length <= MAX_PHRASE && i + length <= starts[d + 1]; length++) {
        const last = tokens[i + length - 1];
        if (last === RUN_BREAK) break;
        const ids = Array.from(tokens.subarray(i, i + length));
        const stems = ids.map((id) => stemOf[id]);
        const key = stems.join(',');
        let phrase = phrases.get(key);
        if (!phrase) phrases.set(key, (phrase = { key, stems, answers: 0, forms: new Map() }));
        const form = ids.join(',');
        phrase.forms.set(form, (phrase.forms.get(form) ?? 0) + 1);
        if (!seen.has(key)) {
          seen.add(key);
          phrase.answers++;
        }
      }
    }
  }
  return phrases;
}

/** A phrase as its answers most often write it (ties: the first in code order), words joined as the language writes them. */
function written(corpus: Corpus, phrase: Phrase): string {
  let best = '';
  let count = -1;
  for (const [form, n] of phrase.forms) if (n > count || (n === count && form < best)) [best, count] = [form, n];
  return joinTerms(best.split(',').map((id) => corpus.terms[Number(id)]));
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
export function labelOf(corpus: Corpus, docs: readonly number[], everywhere: ReadonlyMap<string, number>, total: number, excluded: ReadonlySet<number>): Label | null {
  const phrases = phrasesOf(corpus, docs);
  const floor = Math.max(2, Math.ceil(LABEL_MIN_SHARE * docs.length));
  const score = (phrase: Phrase) => (phrase.answers / docs.length) * Math.log(1 + total / Math.max(phrase.answers, everywhere.get(phrase.key) ?? phrase.answers));
  const candidates = [...phrases.values()].filter((p) => !(p.stems.length === 1 && excluded.has(p.stems[0])));
  const ranked = candidates.map((phrase) => ({ phrase, score: score(phrase) })).sort((a, b) => b.score - a.score || (a.phrase.key < b.phrase.key ? -1 : 1));
  const qualified = ranked.filter(({ phrase }) => phrase.answers >= floor);
  if (!qualified.length) return null;
  let best = qualified[0].phrase;
  // A longer phrase that contains the best one and is found in most of its answers says more.
  for (const { phrase } of qualified) {
    if (phrase.stems.length > best.stems.length && phrase.answers >= LONGER_WINS * best.answers && `,${phrase.key},`.includes(`,${best.key},`)) best = phrase;
  }
  const keyphrases: string[] = [written(corpus, best)];
  for (const { phrase } of ranked) {
    if (keyphrases.length === MAX_KEYPHRASES || phrase.answers < 2) break;
    const text = written(corpus, phrase);
    if (!keyphrases.some((k) => k.includes(text) || text.includes(k))) keyphrases.push(text);
  }
  const form = [...best.forms.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0][0];
  return { label: written(corpus, best), key: best.key, terms: new Set(form.split(',').map((id) => corpus.terms[Number(id)])), keyphrases };
}

/** How many answers contain each phrase, over all the answers a set of groups was found among (the "elsewhere" of labelOf). */
export function phraseSpreadOf(corpus: Corpus, docs: readonly number[]): Map<string, number> {
  const spread = new Map<string, number>();
  for (const [key, phrase] of phrasesOf(corpus, docs)) spread.set(key, phrase.answers);
  return spread;
}
