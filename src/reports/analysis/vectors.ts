import { RUN_BREAK, type Corpus } from './corpus';
import type { SparseRows } from './kmeans';
import type { Yielder } from './yielder';

/** Answers as TF-IDF vectors over their stems, one row per answer given. */
export interface Vectors {
  rows: SparseRows;
  /** Row → its answer in the corpus (row r is `docs[r]` of the answers given). */
  docOfRow: Int32Array;

  /** Feature → its idf over the answers vectorised. */
  idf: Float64Array;
  /** A feature's index by its stem id, for texts vectorised into the same space later. */
  featureOf: Map<number, number>;
}

/** A text's features as keys: its stems (pairs of adjacent stems were tried: on banking77 they lowered NMI a little and cost time). */
function forEachKey(corpus: Corpus, d: number, excluded: ReadonlySet<number>, emit: (key: number) => void): void {
  const { tokens, starts, stemOf } = corpus;
  for (let i = starts[d]; i < starts[d + 1]; i++) {
    const id = tokens[i];
    if (id !== RUN_BREAK && !excluded.has(stemOf[id])) emit(stemOf[id]);
  }
}

/**
 * TF-IDF vectors of some answers: sublinear term frequency (1 + ln tf) times smoothed idf, L2-normalised,
 * so that cosine similarity compares what answers are about rather than how long they are. Features
 * are stems (so "cards" and "card" are one); one found in a single answer cannot make two answers alike
 * and is left out.
 * Every answer gets a row, empty when none of its features is kept. `excluded` stems (the product's
 * name) are no feature: answers are not alike for naming the product.
 */
export async function vectorize(corpus: Corpus, docs: readonly number[], excluded: ReadonlySet<number>, yielder: Yielder): Promise<Vectors> {
  const frequency = new Map<number, number>();
  const seen = new Set<number>();
  for (const d of docs) {
    seen.clear();
    forEachKey(corpus, d, excluded, (key) => {
      if (seen.has(key)) return;
      seen.add(key);
      frequency.set(key, (frequency.get(key) ?? 0) + 1);
    });
    if (yielder.due()) await yielder.giveWay();
  }
  const featureOf = new Map<number, number>();
  const keys = [...frequency.entries()].filter(([, count]) => count >= 2).map(([key]) => key).sort((a, b) => a - b);
  const idf = new Float64Array(keys.length);
  keys.forEach((key, feature) => {
    featureOf.set(key, feature);
    idf[feature] = Math.log((1 + docs.length) / (1 + frequency.get(key)!)) + 1;
  });
  if (yielder.due()) await yielder.giveWay();

  const starts = new Int32Array(docs.length + 1);
  const features: number[] = [];
  const weights: number[] = [];
  const counts = new Map<number, number>();
  for (let r = 0; r < docs.length; r++) {
    counts.clear();
    forEachKey(corpus, docs[r], excluded, (key) => {
      const feature = featureOf.get(key);
      if (feature !== undefined) counts.set(feature, (counts.get(feature) ?? 0) + 1);
    });
    const row = [...counts.entries()].sort((a, b) => a[0] - b[0]);
    let norm = 0;
    const values = row.map(([feature, tf]) => {
      const w = (1 + Math.log(tf)) * idf[feature];
      norm += w * w;
      return w;
    });
    norm = Math.sqrt(norm);
    row.forEach(([feature], i) => {
      features.push(feature);
      weights.push(values[i] / norm);
    });
    starts[r + 1] = features.length;
    if (yielder.due()) await yielder.giveWay();
  }
  return {
    rows: { starts, features: Int32Array.from(features), weights: Float32Array.from(weights), dim: keys.length },
    docOfRow: Int32Array.from(docs),
    idf,
    featureOf,
  };
}

/** A vector in the space of `vectors` from stems and stem pairs given as keys (a codebook theme's text), L2-normalised; empty when none is known. */
export function vectorOfKeys(vectors: Vectors, keys: Iterable<number>): Map<number, number> {
  const counts = new Map<number, number>();
  for (const key of keys) {
    const feature = vectors.featureOf.get(key);
    if (feature !== undefined) counts.set(feature, (counts.get(feature) ?? 0) + 1);
  }
  let norm = 0;
  const vector = new Map<number, number>();
  for (const [feature, tf] of counts) {
    const w = (1 + Math.log(tf)) * vectors.idf[feature];
    vector.set(feature, w);
    norm += w * w;
  }
  for (const [feature, w] of vector) vector.set(feature, w / Math.sqrt(norm));
  return vector;
}

