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
  // Counts in arrays indexed by stem id (a stem's last answer marks it seen there): Maps and Sets per
  // answer were most of this function's time over 100,000 answers.
  const stemCount = corpus.stems.length;
  const frequency = new Int32Array(stemCount);
  const lastSeen = new Int32Array(stemCount).fill(-1);
  for (let r = 0; r < docs.length; r++) {
    forEachKey(corpus, docs[r], excluded, (key) => {
      if (lastSeen[key] === r) return;
      lastSeen[key] = r;
      frequency[key]++;
    });
    if (yielder.due()) await yielder.giveWay();
  }
  const featureOf = new Map<number, number>();
  const featureOfStem = new Int32Array(stemCount).fill(-1);
  const keys: number[] = [];
  for (let key = 0; key < stemCount; key++) if (frequency[key] >= 2) keys.push(key);
  const idf = new Float64Array(keys.length);
  keys.forEach((key, feature) => {
    featureOf.set(key, feature);
    featureOfStem[key] = feature;
    idf[feature] = Math.log((1 + docs.length) / (1 + frequency[key])) + 1;
  });
  if (yielder.due()) await yielder.giveWay();

  // The rows written straight into arrays of their final size: an answer holds a feature once, so there
  // are as many (answer, feature) pairs as the kept stems' frequencies add up to. Plain arrays grown by
  // push held 8 bytes an entry each (about 10 MB apiece over 100,000 answers), plus the copies of
  // their growth, until they were copied into typed arrays at the end.
  let pairs = 0;
  for (const key of keys) pairs += frequency[key];
  const starts = new Int32Array(docs.length + 1);
  const features = new Int32Array(pairs);
  const weights = new Float32Array(pairs);
  let n = 0;
  // One answer's term frequencies by feature, and the features it has (reset after each answer).
  const counts = new Int32Array(keys.length);
  const present: number[] = [];
  for (let r = 0; r < docs.length; r++) {
    present.length = 0;
    forEachKey(corpus, docs[r], excluded, (key) => {
      const feature = featureOfStem[key];
      if (feature < 0) return;
      if (counts[feature]++ === 0) present.push(feature);
    });
    present.sort((a, b) => a - b);
    let norm = 0;
    for (const feature of present) {
      const w = (1 + Math.log(counts[feature])) * idf[feature];
      norm += w * w;
    }
    norm = Math.sqrt(norm);
    for (const feature of present) {
      features[n] = feature;
      weights[n++] = ((1 + Math.log(counts[feature])) * idf[feature]) / norm;
      counts[feature] = 0;
    }
    starts[r + 1] = n;
    if (yielder.due()) await yielder.giveWay();
  }
  return {
    rows: { starts, features, weights, dim: keys.length },
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

