import type { AnalysisAnswer } from './analysis.types';
import { stemmerFor } from './stemmers';
import { baseLanguage } from '../../languages/languages';
import { forEachTerm, rememberingTermRules, type TermRules } from './tokenize';
import type { Yielder } from './yielder';

/** Between two runs of terms in `Corpus.tokens`: a phrase never spans it. */
export const RUN_BREAK = -1;

/**
 * The answers as term ids, tokenised once for every part of the analysis. Terms are interned and packed
 * into one typed array: a string or an array per word of 100,000 answers would cost far more memory
 * than the answers themselves.
 */
export interface Corpus {
  answers: readonly AnalysisAnswer[];
  /** Term id → term. A term is a word of one base language: the same letters in two languages are two terms. */
  terms: string[];
  /** Term id → its stem's id: the terms that one language inflects from one word share it. */
  stemOf: Int32Array;
  /** Stem id → the stem. */
  stems: string[];
  /** Term id → the base language of its answers. */
  termLanguage: string[];
  /** `<language>\u0000<stem>` → stem id. */
  stemIds: ReadonlyMap<string, number>;
  /** Every answer's term ids in order, RUN_BREAK between runs. */
  tokens: Int32Array;
  /** Answer `d`'s tokens are `tokens[starts[d]]` up to `tokens[starts[d + 1]]`. */
  starts: Int32Array;
  /** Answer → its invite, numbered in order of first appearance. */
  links: Int32Array;
  /** Base languages with no stop-word list, with how many answers were in each. */
  unlistedLanguages: Map<string, number>;
}

export async function buildCorpus(answers: readonly AnalysisAnswer[], yielder: Yielder): Promise<Corpus> {
  const termIds = new Map<string, Map<string, number>>();
  const terms: string[] = [];
  const termLanguage: string[] = [];
  const stemIds = new Map<string, number>();
  const stemOf: number[] = [];
  const stems: string[] = [];
  const linkIds = new Map<string, number>();
  const rulesByTag = new Map<string, TermRules>();
  const unlistedLanguages = new Map<string, number>();
  // Room for about as many terms as the answers have words: growing by copies would double the peak.
  let capacity = 1024;
  for (const answer of answers) {
    capacity += (Number.isFinite(answer.words) ? Math.max(0, answer.words) : 0) + 1;
    if (yielder.due()) await yielder.giveWay();
  }
  let tokens = new Int32Array(capacity);
  let length = 0;
  const starts = new Int32Array(answers.length + 1);
  const links = new Int32Array(answers.length);

  const push = (id: number) => {
    if (length === tokens.length) {
      const grown = new Int32Array(Math.max(1024, Math.ceil(tokens.length * 1.5)));
      grown.set(tokens);
      tokens = grown;
    }
    tokens[length++] = id;
  };

  for (let d = 0; d < answers.length; d++) {
    const answer = answers[d];
    let link = linkIds.get(answer.linkID);
    if (link === undefined) linkIds.set(answer.linkID, (link = linkIds.size));
    links[d] = link;
    let rules = rulesByTag.get(answer.language);
    if (!rules) rulesByTag.set(answer.language, (rules = rememberingTermRules(answer.language)));
    if (!rules.stopWords) {
      const language = baseLanguage(answer.language);
      unlistedLanguages.set(language, (unlistedLanguages.get(language) ?? 0) + 1);
    }
    const start = length;
    const language = rules.language;
    let ids = termIds.get(language);
    if (!ids) termIds.set(language, (ids = new Map()));
    const stem = stemmerFor(language);
    forEachTerm(answer.answer, rules, (term) => {
      if (term === null) {
        if (length > start && tokens[length - 1] !== RUN_BREAK) push(RUN_BREAK);
        return;
      }
      let id = ids.get(term);
      if (id === undefined) {
        ids.set(term, (id = terms.length));
        terms.push(term);
        termLanguage.push(language);
        const stemKey = `${language}\u0000${stem ? stem(term) : term}`;
        let stemId = stemIds.get(stemKey);
        if (stemId === undefined) {
          stemIds.set(stemKey, (stemId = stems.length));
          stems.push(stemKey.slice(language.length + 1));
        }
        stemOf.push(stemId);
      }
      push(id);
    });
    if (length > start && tokens[length - 1] === RUN_BREAK) length--;
    starts[d + 1] = length;
    if (yielder.due()) await yielder.giveWay();
  }
  return { answers, terms, stemOf: Int32Array.from(stemOf), stems, termLanguage, stemIds, tokens: tokens.subarray(0, length), starts, links, unlistedLanguages };
}

/** The distinct invites among some answers. */
export function distinctLinks(corpus: Corpus, docs: readonly number[]): number {
  return new Set(docs.map((d) => corpus.links[d])).size;
}
