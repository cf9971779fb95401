import { createHash } from 'node:crypto';
import type { CodebookTheme } from '../../codebooks/codebook.types';
import type { Quote, Theme } from './analysis.types';
import { assignAll, centroidsOf, groupRows, leaveOneOutFit } from './clustering';
import type { Corpus } from './corpus';
import { excerpt } from './excerpt';
import { isVerbatimQuote } from './quotes';
import type { SparseRows } from './kmeans';
import { labelOf, phraseSpreadOf, type Label } from './labels';
import { median } from './stats';
import { stemmerFor } from './stemmers';
import { baseLanguage } from '../../languages/languages';
import { forEachTerm, termRules } from './tokenize';
import { vectorize, vectorOfKeys, type Vectors } from './vectors';
import type { Yielder } from './yielder';

/** What the LLM analyst asks a model for at most (the offline analysis takes the report's maxThemes). */
export const MAX_THEMES_PER_QUESTION = 6;
export const MAX_THEMES_ACROSS = 8;
/** A theme holds answers of at least this many distinct invites. */
const MIN_INVITES = 2;
/** A group found by clustering needs this share of its language's answers (and MIN_INVITES invites) to be a theme. */
const MIN_SHARE = 0.005;
/** An answer less alike than this to every theme's centre is unlike any theme: it goes to `other`. */
const MIN_FIT = 0.1;
/** An answer less alike to the rest of its theme than this share of the theme's median is a stray: it goes to `other`. */
const STRAY_AT = 0.5;
/** Groups at least this akin merge (see clustering's kinship). */
const MERGE_AT = 0.4;
/** An answer joins a codebook theme when at least this alike to its label, description and examples. */
const CODEBOOK_FIT = 0.2;
const SEED = 20240611;
const QUOTES_PER_THEME = 2;
/** How far down a theme's most typical answers to look for quotable ones. */
const QUOTE_CANDIDATES = 50;
export const DESCRIPTION_MAX_CHARS = 200;

/** What a set of answers was coded with: its themes, and each answer's (an index into `themes`, or -1: other). */
export interface Coding {
  themes: Theme[];
  /** Parallel to the `docs` given: the index of the answer's theme in `themes`, or -1. */
  codes: Int32Array;
}

export interface CodingOptions {
  /** At most this many themes (codebook themes included). */
  maxThemes: number;
  /** The themes to code against first (a codebook's), in order; [] for none. */
  codebook: readonly CodebookTheme[];
  /** themeIDs: `<prefix>-t<n>` and, for codebook themes, `<prefix>-c<n>`. */
  prefix: string;
  /** Stems that never make answers alike nor name a theme alone (the product's name), by corpus stem id. */
  excluded: ReadonlySet<number>;
}

/** A theme in the making: its answers (corpus docs), its label, and where it came from. */
interface Draft {
  docs: number[];
  similarity: Map<number, number>;
  label: Label | null;
  codebook: number | null;
  language: string | null;
}

/**
 * Codes every answer given with one theme or none: first against the codebook's themes (each answer
 * to the one it is most like, if alike enough), then the rest grouped into themes of their own (emerging
 * ones beside a codebook), language by language, since the analysis cannot translate and answers must
 * not be grouped for sharing a language. Deterministic: the same answers and codebook give the same codes.
 */
export async function codeAnswers(corpus: Corpus, docs: readonly number[], options: CodingOptions, yielder: Yielder): Promise<Coding> {
  const byLanguage = new Map<string, number[]>();
  for (const d of docs) {
    const language = baseLanguage(corpus.answers[d].language);
    let list = byLanguage.get(language);
    if (!list) byLanguage.set(language, (list = []));
    list.push(d);
  }
  const languages = [...byLanguage.keys()].sort((a, b) => byLanguage.get(b)!.length - byLanguage.get(a)!.length || (a < b ? -1 : 1));

  const codebookDrafts: Draft[] = options.codebook.map((_, i) => ({ docs: [], similarity: new Map(), label: null, codebook: i, language: null }));
  const emerging: Draft[] = [];
  const budget = Math.max(0, options.maxThemes - options.codebook.length);
  const caps = shareOut(budget, languages.map((language) => byLanguage.get(language)!.length));
  for (const [i, language] of languages.entries()) {
    const languageDocs = byLanguage.get(language)!;
    const vectors = await vectorize(corpus, languageDocs, options.excluded, yielder);
    let rest: number[] = languageDocs.map((_, r) => r);
    if (options.codebook.length) rest = await matchCodebook(corpus, vectors, options.codebook, language, codebookDrafts, yielder);
    if (caps[i] > 0) emerging.push(...(await findThemes(corpus, vectors, rest, caps[i], language, options.excluded, yielder)));
  }

  // Each theme's answers in an order of their own: ties among its most typical answers go by it.
  const ordered = [...codebookDrafts, ...emerging.sort((a, b) => b.docs.length - a.docs.length || ((a.label?.label ?? '') < (b.label?.label ?? '') ? -1 : 1))];
  const index = new Map<number, number>();
  ordered.forEach((draft, t) => draft.docs.forEach((d) => index.set(d, t)));
  const codes = Int32Array.from(docs, (d) => index.get(d) ?? -1);
  const themes: Theme[] = [];
  let n = 0;
  for (const draft of ordered) {
    const codebookTheme = draft.codebook === null ? null : options.codebook[draft.codebook];
    const languages = new Set(draft.docs.map((d) => baseLanguage(corpus.answers[d].language)));
    const described = describe(corpus, draft);
    themes.push({
      themeID: codebookTheme ? `${options.prefix}-c${draft.codebook! + 1}` : `${options.prefix}-t${++n}`,
      theme: codebookTheme ? codebookTheme.theme : draft.label!.label,
      description: codebookTheme?.description ?? described.text,
      keyphrases: draft.label?.keyphrases ?? [],
      answers: new Set(draft.docs.map((d) => corpus.links[d])).size,
      mentions: draft.docs.length,
      quotes: await typicalQuotes(corpus, draft, described, yielder),
      emerging: options.codebook.length > 0 && !codebookTheme,
      language: draft.language ?? (languages.size === 1 ? [...languages][0] : null),
    });
    if (yielder.due()) await yielder.giveWay();
  }
  return { themes, codes };
}

/**
 * Which of two answers comes first among equals: by a hash of their text, then by invite and turn. An
 * order that does not depend on the order they were read in, used where ties must be broken.
 */
function canonicallyBefore(corpus: Corpus, a: number, b: number): boolean {
  const [ha, hb] = [hashOf(corpus, a), hashOf(corpus, b)];
  if (ha !== hb) return ha < hb;
  const [x, y] = [corpus.answers[a], corpus.answers[b]];
  if (x.answer !== y.answer) return x.answer < y.answer;
  return x.linkID !== y.linkID ? x.linkID < y.linkID : x.turnIndex < y.turnIndex;
}

/** Each corpus's answers' hashes (-1: not yet computed): an answer is ranked among its question's and again among all. */
const corpusHashes = new WeakMap<Corpus, Float64Array>();

/** Answer d's textHash, computed once per corpus. */
function hashOf(corpus: Corpus, d: number): number {
  let hashes = corpusHashes.get(corpus);
  if (!hashes) corpusHashes.set(corpus, (hashes = new Float64Array(corpus.answers.length).fill(-1)));
  if (hashes[d] < 0) hashes[d] = textHash(corpus.answers[d].answer);
  return hashes[d];
}

/**
 * 32 bits of a text's MD5 (not for security: an order of its own for each text). node:crypto's native
 * hash, since a hash of ours in JavaScript took seconds over 20,000 long answers.
 */
function textHash(text: string): number {
  return createHash('md5').update(text).digest().readUInt32BE(0);
}

/** `total` shared out in proportion to `weights` (largest remainders; ties to the earlier), each weight's share at most... its part. */
function shareOut(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum === 0) return weights.map(() => 0);
  const exact = weights.map((w) => (total * w) / sum);
  const shares = exact.map(Math.floor);
  let left = total - shares.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => ({ i, rest: x - Math.floor(x) })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of order) {
    if (left === 0) break;
    shares[i]++;
    left--;
  }
  return shares;
}

/** The stem ids of a text in one language, as runs, mapped to the corpus's stems (unknown stems are left out). */
function stemRuns(corpus: Corpus, text: string, language: string): number[][] {
  const stem = stemmerFor(language);
  const runs: number[][] = [];
  let run: number[] = [];
  forEachTerm(text, termRules(language), (term) => {
    const id = term === null ? undefined : corpus.stemIds.get(`${language}\u0000${stem ? stem(term) : term}`);
    if (id === undefined) {
      if (run.length) runs.push(run);
      run = [];
    } else {
      run.push(id);
    }
  });
  if (run.length) runs.push(run);
  return runs;
}

/**
 * Each answer to the codebook theme it is most like (its label, description and examples as one text,
 * in the answers' TF-IDF space), if at least CODEBOOK_FIT alike; ties go to the earlier theme. Answers
 * the codebook does not take are returned (rows of `vectors`), for emerging themes.
 */
async function matchCodebook(corpus: Corpus, vectors: Vectors, codebook: readonly CodebookTheme[], language: string, drafts: Draft[], yielder: Yielder): Promise<number[]> {
  const targets = codebook.map((theme) => {
    const text = [theme.theme, theme.description ?? '', ...theme.examples].join('\n');
    return vectorOfKeys(vectors, stemRuns(corpus, text, language).flat());
  });
  const { rows } = vectors;
  const rest: number[] = [];
  for (let r = 0; r < vectors.docOfRow.length; r++) {
    let best = -1;
    let bestScore = CODEBOOK_FIT;
    targets.forEach((target, t) => {
      let score = 0;
      for (let i = rows.starts[r]; i < rows.starts[r + 1]; i++) score += rows.weights[i] * (target.get(rows.features[i]) ?? 0);
      if (score >= bestScore && (best < 0 || score > bestScore)) [best, bestScore] = [t, score];
    });
    if (best < 0) rest.push(r);
    else {
      drafts[best].docs.push(vectors.docOfRow[r]);
      drafts[best].similarity.set(vectors.docOfRow[r], bestScore);
    }
    if (yielder.due()) await yielder.giveWay();
  }
  return rest;
}

/** The rows of `vectors` listed in `subset` as a SparseRows of their own (row i is subset[i]). */
function subRows(rows: SparseRows, subset: readonly number[]): SparseRows {
  const starts = new Int32Array(subset.length + 1);
  let size = 0;
  subset.forEach((r, i) => (starts[i + 1] = size += rows.starts[r + 1] - rows.starts[r]));
  const features = new Int32Array(size);
  const weights = new Float32Array(size);
  subset.forEach((r, i) => {
    features.set(rows.features.subarray(rows.starts[r], rows.starts[r + 1]), starts[i]);
    weights.set(rows.weights.subarray(rows.starts[r], rows.starts[r + 1]), starts[i]);
  });
  return { starts, features, weights, dim: rows.dim };
}

/**
 * Themes among some answers of one language (rows of `vectors`): groups found by clustering (see
 * groupRows), each named by labelOf. A group with no label (nothing in common to name) or of fewer than
 * MIN_INVITES invites is dissolved, groups named alike are merged, and the answers are assigned again to
 * the themes left, until every theme stands: so no answer is lost, it is in a theme or in `other`.
 */
async function findThemes(corpus: Corpus, vectors: Vectors, subset: readonly number[], cap: number, language: string, excluded: ReadonlySet<number>, yielder: Yielder): Promise<Draft[]> {
  if (subset.length < MIN_INVITES) return [];
  const rows = subRows(vectors.rows, subset);
  const docOf = (i: number) => vectors.docOfRow[subset[i]];
  const minRows = Math.max(MIN_INVITES, Math.ceil(MIN_SHARE * Math.min(subset.length, 4000)));
  // The rows come in the order the database returned them; k-means' sample and seeds follow a hash of each text instead.
  const rank = Uint32Array.from(subset, (_, i) => hashOf(corpus, docOf(i)));
  let grouping = await groupRows(rows, { maxGroups: cap, minRows, mergeAt: MERGE_AT, minFit: MIN_FIT, seed: SEED, rank }, yielder);
  const allDocs = subset.map((_, i) => docOf(i));
  const { spread, total } = phraseSpreadOf(corpus, allDocs);
  if (yielder.due()) await yielder.giveWay();

  for (let round = 0; round < 4; round++) {
    const members: number[][] = Array.from({ length: grouping.k }, () => []);
    grouping.assignment.forEach((g, i) => g >= 0 && members[g].push(i));
    const byKey = new Map<string, { rows: number[]; label: Label }>();
    let changed = false;
    for (const rowsOf of members) {
      const groupDocs = rowsOf.map(docOf);
      const invites = new Set(groupDocs.map((d) => corpus.links[d])).size;
      const label = invites >= MIN_INVITES ? labelOf(corpus, groupDocs, spread, total, excluded) : null;
      if (!label) {
        changed ||= rowsOf.length > 0;
        continue;
      }
      const same = byKey.get(label.key);
      if (same) {
        same.rows.push(...rowsOf);
        changed = true;
      } else {
        byKey.set(label.key, { rows: rowsOf, label });
      }
      if (yielder.due()) await yielder.giveWay();
    }
    const kept = [...byKey.values()];
    if (!changed) {
      const fitting = await withoutStrays(corpus, rows, kept, docOf, yielder);
      return fitting.map(({ rows: rowsOf, label }) => ({
        docs: rowsOf.map(docOf),
        similarity: new Map(rowsOf.map((i) => [docOf(i), grouping.similarity[i]])),
        label,
        codebook: null,
        language,
      }));
    }
    if (!kept.length) return [];
    // The themes left, their centres from their members, and every answer assigned to them again.
    const assignment = new Int32Array(subset.length).fill(-1);
    kept.forEach(({ rows: rowsOf }, g) => rowsOf.forEach((i) => (assignment[i] = g)));
    grouping = await assignAll(rows, centroidsOf(rows, assignment, kept.length), kept.length, MIN_FIT, yielder);
  }
  return [];
}

/**
 * The themes without the answers unlike them: an answer whose similarity to the rest of its theme (see
 * leaveOneOutFit) is under STRAY_AT of the theme's median, and that does not say the theme's label, goes to `other`. Nearest-centre assignment
 * alone keeps an answer held by one word it shares with one member ("every single evening" beside
 * "late in the evening"); a share of the theme's own median holds for tight small themes and loose
 * large ones alike. A theme left with fewer than MIN_INVITES invites is dissolved into `other`; one that lost
 * answers keeps its label, since every answer that says it stays.
 */
async function withoutStrays(
  corpus: Corpus,
  rows: SparseRows,
  themes: readonly { rows: number[]; label: Label }[],
  docOf: (row: number) => number,
  yielder: Yielder,
): Promise<{ rows: number[]; label: Label }[]> {
  const assignment = new Int32Array(rows.starts.length - 1).fill(-1);
  themes.forEach((theme, g) => theme.rows.forEach((r) => (assignment[r] = g)));
  const fit = leaveOneOutFit(rows, assignment, themes.length);
  if (yielder.due()) await yielder.giveWay();
  const kept: { rows: number[]; label: Label }[] = [];
  for (const theme of themes) {
    const floor = STRAY_AT * (median(theme.rows.map((r) => fit[r])) ?? 0);
    const named = (r: number) => {
      const text = corpus.answers[docOf(r)].answer.toLowerCase();
      return [...theme.label.terms].every((term) => text.includes(term));
    };
    const fitting = theme.rows.filter((r) => fit[r] >= floor || named(r));
    if (fitting.length === theme.rows.length) {
      kept.push(theme);
      continue;
    }
    // The answers that say the label are all kept, so the label still names answers of the theme.
    if (new Set(fitting.map((r) => corpus.links[docOf(r)])).size >= MIN_INVITES) kept.push({ rows: fitting, label: theme.label });
    if (yielder.due()) await yielder.giveWay();
  }
  return kept;
}

/**
 * A theme's description offline: the most typical of its answers (nearest its centre) that carries its
 * label, quoted at that sentence, at most DESCRIPTION_MAX_CHARS; with the answer it quotes (null: none).
 */
function describe(corpus: Corpus, draft: Draft): { doc: number | null; text: string } {
  const typical = mostTypical(corpus, draft, QUOTE_CANDIDATES);
  const terms = draft.label?.terms ?? new Set<string>();
  for (const d of typical) {
    const answer = corpus.answers[d];
    const text = excerpt(answer.answer, answer.language, { terms }, { allowShort: true });
    if (text !== null && [...terms].every((term) => text.toLowerCase().includes(term))) return { doc: d, text: shorten(text) };
  }
  const first = typical[0];
  if (first === undefined) return { doc: null, text: '' };
  const answer = corpus.answers[first];
  return { doc: first, text: shorten(excerpt(answer.answer, answer.language, { terms }, { allowShort: true }) ?? answer.answer.trim()) };
}

/** At most DESCRIPTION_MAX_CHARS of a verbatim text, cut where a word ends (a substring of it, trimmed). */
export function shorten(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length <= DESCRIPTION_MAX_CHARS) return trimmed;
  const cut = trimmed.slice(0, DESCRIPTION_MAX_CHARS);
  const space = cut.search(/\s\S*$/u);
  return (space > DESCRIPTION_MAX_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd();
}

/** The `limit` answers of a theme nearest its centre, nearest first (ties: canonicallyBefore): kept in a short sorted list, not by sorting the whole theme. */
function mostTypical(corpus: Corpus, draft: Draft, limit: number): number[] {
  const top: { d: number; s: number }[] = [];
  const before = (a: { d: number; s: number }, b: { d: number; s: number }) => a.s > b.s || (a.s === b.s && canonicallyBefore(corpus, a.d, b.d));
  for (const d of draft.docs) {
    const entry = { d, s: draft.similarity.get(d) ?? 0 };
    if (top.length === limit && !before(entry, top[limit - 1])) continue;
    let at = top.length;
    while (at > 0 && before(entry, top[at - 1])) at--;
    top.splice(at, 0, entry);
    if (top.length > limit) top.pop();
  }
  return top.map((entry) => entry.d);
}

/**
 * Up to QUOTES_PER_THEME quotes of a theme's most typical answers, from different invites: first the
 * answer its description quotes, as the description quotes it when that is a quote (three words or
 * more), so that the description can be traced to its answer and goes with it when that is erased.
 */
async function typicalQuotes(corpus: Corpus, draft: Draft, described: { doc: number | null; text: string }, yielder: Yielder): Promise<Quote[]> {
  const terms = draft.label?.terms ?? new Set<string>();
  const quotes: Quote[] = [];
  const order = mostTypical(corpus, draft, QUOTE_CANDIDATES);
  const at = described.doc === null ? -1 : order.indexOf(described.doc);
  if (at > 0) order.unshift(...order.splice(at, 1));
  for (const d of order) {
    const answer = corpus.answers[d];
    if (quotes.some((quote) => quote.linkID === answer.linkID)) continue;
    const asDescribed = d === described.doc && isVerbatimQuote({ text: described.text }, { role: 'interviewee', content: answer.answer });
    const text = asDescribed ? described.text : excerpt(answer.answer, answer.language, { terms });
    if (text !== null) quotes.push({ linkID: answer.linkID, turnIndex: answer.turnIndex, text });
    if (quotes.length === QUOTES_PER_THEME) break;
    if (yielder.due()) await yielder.giveWay();
  }
  return quotes;
}
