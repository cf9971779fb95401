import type { Quote, Theme } from './analysis.types';
import { RUN_BREAK, type Corpus } from './corpus';
import { excerpt } from './excerpt';
import { meanCentroid, seedCentroids, simplifiedSilhouette, sphericalKMeans, type Clustering, type SparseRows } from './kmeans';
import type { Yielder } from './yielder';

export const MAX_THEMES_PER_QUESTION = 6;
export const MAX_THEMES_ACROSS = 8;
/** A theme holds at least this share of the answers it was found among, and at least MIN_MEMBERS. */
const MIN_SHARE = 0.05;
const MIN_MEMBERS = 2;
/**
 * Below this mean silhouette no split separates the answers better than chance: they are one theme
 * (or none) rather than several made-up ones.
 */
const MIN_SILHOUETTE = 0.1;
/** An answer less similar than this to its theme's centre fits no theme and is left out. */
const MIN_FIT = 0.2;
/**
 * A term names a theme only when this share of its answers (and two at least) contain it; a theme with
 * no such term has nothing in common to name.
 */
const MIN_LABEL_COVERAGE = 0.3;
/** The number of clusters is chosen on an evenly spread sample of this many answers, then refined on all. */
const SAMPLE_SIZE = 2000;
const MAX_ITERATIONS = 30;
const SEED = 20240611;
const LABEL_TERMS = 2;
const DESCRIPTION_TERMS = 3;
const QUOTES_PER_THEME = 2;
/** How far down a theme's most typical answers to look for quotable ones. */
const QUOTE_CANDIDATES = 50;

interface Vectors {
  rows: SparseRows;
  /** Row → its answer in the corpus. */
  docOfRow: Int32Array;
  /** Feature → term id. */
  termOfFeature: Int32Array;
  /** Feature → answers (rows) that contain it. */
  rowFrequency: Int32Array;
}

/**
 * TF-IDF vectors of answers over their terms: sublinear term frequency (1 + ln tf) times smoothed
 * idf, L2-normalised, so that cosine similarity compares what answers are about rather than how long
 * they are. A term in a single answer cannot make two answers similar and is left out; so is an answer
 * left with no term.
 */
async function vectorize(corpus: Corpus, docs: readonly number[], yielder: Yielder): Promise<Vectors> {
  const { tokens, starts } = corpus;
  const vocabulary = corpus.terms.length;
  const frequency = new Int32Array(vocabulary);
  const lastDoc = new Int32Array(vocabulary).fill(-1);
  let capacity = 0;
  for (const d of docs) {
    for (let i = starts[d]; i < starts[d + 1]; i++) {
      const id = tokens[i];
      if (id !== RUN_BREAK && lastDoc[id] !== d) {
        lastDoc[id] = d;
        frequency[id]++;
        capacity++;
      }
    }
    if (yielder.due()) await yielder.giveWay();
  }
  const featureOf = new Int32Array(vocabulary).fill(-1);
  const termOfFeature: number[] = [];
  for (let id = 0; id < vocabulary; id++) if (frequency[id] >= 2) featureOf[id] = termOfFeature.push(id) - 1;
  const dim = termOfFeature.length;
  const idf = Float64Array.from(termOfFeature, (id) => Math.log((1 + docs.length) / (1 + frequency[id])) + 1);

  const rowStarts = [0];
  const features = new Int32Array(capacity);
  const weights = new Float32Array(capacity);
  const docOfRow: number[] = [];
  const rowFrequency = new Int32Array(dim);
  const counts = new Float64Array(dim);
  // An answer's features, sorted in place: Array#sort with a comparator copied every answer's (180 MB over a large report).
  const buffer = new Int32Array(dim);
  let length = 0;
  for (const d of docs) {
    let n = 0;
    for (let i = starts[d]; i < starts[d + 1]; i++) {
      const feature = tokens[i] === RUN_BREAK ? -1 : featureOf[tokens[i]];
      if (feature < 0) continue;
      if (counts[feature] === 0) buffer[n++] = feature;
      counts[feature]++;
    }
    if (n) {
      const touched = buffer.subarray(0, n).sort();
      let norm = 0;
      for (let t = 0; t < n; t++) norm += ((1 + Math.log(counts[touched[t]])) * idf[touched[t]]) ** 2;
      norm = Math.sqrt(norm);
      for (let t = 0; t < n; t++) {
        const feature = touched[t];
        features[length] = feature;
        weights[length++] = ((1 + Math.log(counts[feature])) * idf[feature]) / norm;
        rowFrequency[feature]++;
        counts[feature] = 0;
      }
      rowStarts.push(length);
      docOfRow.push(d);
    }
    if (yielder.due()) await yielder.giveWay();
  }
  return {
    rows: { starts: Int32Array.from(rowStarts), features: features.slice(0, length), weights: weights.slice(0, length), dim },
    docOfRow: Int32Array.from(docOfRow),
    termOfFeature: Int32Array.from(termOfFeature),
    rowFrequency,
  };
}

/** `size` of `count` rows at even steps, so that a sample spreads over the answers' order (all when fewer). */
function evenSample(count: number, size: number): Int32Array {
  const sample = new Int32Array(Math.min(count, size));
  for (let i = 0; i < sample.length; i++) sample[i] = count <= size ? i : Math.floor((i * count) / size);
  return sample;
}

/**
 * k from the data: each k from 2 up to what the minimum theme size allows is tried on the sample
 * (k-means++ seeds from a fixed seed), rated by the simplified silhouette; the best wins if it
 * separates the answers at all and leaves no cluster below the minimum size, else they are taken as
 * one group. Then k-means refines it over all rows.
 */
async function cluster(rows: SparseRows, maxThemes: number, yielder: Yielder): Promise<Clustering> {
  const count = rows.starts.length - 1;
  const all = evenSample(count, count);
  const sample = evenSample(count, SAMPLE_SIZE);
  const sampleMinMembers = Math.max(MIN_MEMBERS, Math.ceil(MIN_SHARE * sample.length));
  const maxK = Math.min(maxThemes, Math.floor(sample.length / sampleMinMembers));
  let best = { k: 1, score: MIN_SILHOUETTE, centroids: meanCentroid(rows, sample) };
  for (let k = 2; k <= maxK; k++) {
    const seeds = await seedCentroids(rows, sample, k, SEED + k, yielder);
    const clustering = await sphericalKMeans(rows, sample, seeds, k, MAX_ITERATIONS, yielder);
    // A split that leaves a cluster too small to be a theme is no better: its answers would be dropped.
    const sizes = new Int32Array(k);
    for (const row of sample) sizes[clustering.assignment[row]]++;
    if (sizes.some((size) => size < sampleMinMembers)) continue;
    const score = await simplifiedSilhouette(rows, sample, clustering, yielder);
    if (score > best.score) best = { k, score, centroids: clustering.centroids };
  }
  return sphericalKMeans(rows, all, best.centroids, best.k, MAX_ITERATIONS, yielder);
}

interface Group {
  rows: number[];
  /** Its telling terms, best first, with the rows that contain each. */
  terms: { feature: number; rows: number }[];
}

/**
 * A group's telling terms by class-based TF-IDF: the share of the group's answers that contain a term
 * times its idf over all the answers clustered, so that a term common to every answer names no group.
 */
async function tellingTerms(vectors: Vectors, rows: readonly number[], termText: (feature: number) => string, yielder: Yielder): Promise<Group['terms']> {
  const { starts, features, dim } = vectors.rows;
  const coverage = new Int32Array(dim);
  for (const row of rows) {
    for (let i = starts[row]; i < starts[row + 1]; i++) coverage[features[i]]++;
    if (yielder.due()) await yielder.giveWay();
  }
  const total = vectors.docOfRow.length;
  const scored: { feature: number; rows: number; score: number }[] = [];
  for (let feature = 0; feature < dim; feature++) {
    const count = coverage[feature];
    if (count >= Math.max(MIN_MEMBERS, MIN_LABEL_COVERAGE * rows.length)) {
      scored.push({ feature, rows: count, score: (count / rows.length) * Math.log(1 + total / vectors.rowFrequency[feature]) });
    }
  }
  scored.sort((a, b) => b.score - a.score || (termText(a.feature) < termText(b.feature) ? -1 : 1));
  return scored.slice(0, DESCRIPTION_TERMS).map(({ feature, rows: count }) => ({ feature, rows: count }));
}

function describe(group: Group, termText: (feature: number) => string): string {
  const mentions = group.terms.map((term, i) => (i === 0 ? `${term.rows} ${term.rows === 1 ? 'mentions' : 'mention'} ` : `${term.rows} `) + termText(term.feature));
  const list = mentions.length > 1 ? `${mentions.slice(0, -1).join(', ')} and ${mentions[mentions.length - 1]}` : mentions[0];
  return `${group.rows.length} similar answers; ${list}.`;
}

/**
 * Themes among some answers: groups of similar answers (spherical k-means over TF-IDF vectors, the
 * number of groups chosen from the data), each named by its most telling terms, with up to two quotes
 * of its most typical answers (those nearest its centre) from different invites. Answers that fit no
 * group well are left out, and a group too small or with no term in common is not a theme.
 */
export async function findThemes(corpus: Corpus, docs: readonly number[], maxThemes: number, yielder: Yielder): Promise<Theme[]> {
  const vectors = await vectorize(corpus, docs, yielder);
  const count = vectors.docOfRow.length;
  const minMembers = Math.max(MIN_MEMBERS, Math.ceil(MIN_SHARE * count));
  if (count < minMembers) return [];
  const clustering = await cluster(vectors.rows, maxThemes, yielder);
  const termText = (feature: number) => corpus.terms[vectors.termOfFeature[feature]];

  const members: number[][] = Array.from({ length: clustering.k }, () => []);
  for (let row = 0; row < count; row++) {
    if (clustering.similarity[row] >= MIN_FIT) members[clustering.assignment[row]].push(row);
  }
  // Two clusters named alike are one theme that k-means split: they are merged.
  const byLabel = new Map<string, number[]>();
  for (const rows of members) {
    if (rows.length < minMembers) continue;
    const terms = await tellingTerms(vectors, rows, termText, yielder);
    if (!terms.length) continue;
    const label = terms.slice(0, LABEL_TERMS).map((term) => termText(term.feature)).sort().join('\u0000');
    byLabel.set(label, [...(byLabel.get(label) ?? []), ...rows]);
  }
  const themes: { size: number; theme: Theme }[] = [];
  for (const rows of byLabel.values()) {
    const group = { rows, terms: await tellingTerms(vectors, rows, termText, yielder) };
    themes.push({
      size: rows.length,
      theme: {
        theme: group.terms.slice(0, LABEL_TERMS).map((term) => termText(term.feature)).join(' · '),
        description: describe(group, termText),
        answers: new Set(rows.map((row) => corpus.links[vectors.docOfRow[row]])).size,
        quotes: await typicalQuotes(corpus, vectors, group, clustering, termText, yielder),
        // Compile shims until the analysis branch's coding lands (issue 29): ids are given by the report builder.
        themeID: '',
        keyphrases: [],
        mentions: rows.length,
        emerging: false,
        language: null,
      },
    });
  }
  themes.sort((a, b) => b.size - a.size || (a.theme.theme < b.theme.theme ? -1 : a.theme.theme > b.theme.theme ? 1 : 0));
  return themes.map(({ theme }) => theme);
}

async function typicalQuotes(
  corpus: Corpus,
  vectors: Vectors,
  group: Group,
  clustering: Clustering,
  termText: (feature: number) => string,
  yielder: Yielder,
): Promise<Quote[]> {
  const terms = new Set(group.terms.map((term) => termText(term.feature)));
  const typical = await mostTypical(group.rows, clustering.similarity, yielder);
  const quotes: Quote[] = [];
  for (const row of typical) {
    const answer = corpus.answers[vectors.docOfRow[row]];
    if (quotes.some((quote) => quote.linkID === answer.linkID)) continue;
    const text = excerpt(answer.answer, answer.language, { terms });
    if (text !== null) quotes.push({ linkID: answer.linkID, turnIndex: answer.turnIndex, text });
    if (quotes.length === QUOTES_PER_THEME) break;
    if (yielder.due()) await yielder.giveWay();
  }
  return quotes;
}

/** The QUOTE_CANDIDATES rows nearest their centre, nearest first (ties by row): a selection, not a sort of all. */
async function mostTypical(rows: readonly number[], similarity: Float64Array, yielder: Yielder): Promise<number[]> {
  const before = (a: number, b: number) => similarity[a] > similarity[b] || (similarity[a] === similarity[b] && a < b);
  const best: number[] = [];
  for (const row of rows) {
    if (yielder.due()) await yielder.giveWay();
    if (best.length === QUOTE_CANDIDATES) {
      if (!before(row, best[best.length - 1])) continue;
      best.pop();
    }
    let i = best.length;
    while (i > 0 && before(row, best[i - 1])) i--;
    best.splice(i, 0, row);
  }
  return best;
}
