import type { Yielder } from './yielder';

/**
 * Rows of L2-normalised sparse vectors, packed: row r's features are `features[starts[r]]` up to
 * `features[starts[r + 1]]`, with their `weights`. Centroids are dense (k × dim), which stays small
 * because k is small, while the rows, many and short, stay sparse. That is why this is not ml-kmeans
 * or skmeans: both want dense rows, and 100,000 answers over a vocabulary of thousands would not fit.
 */
export interface SparseRows {
  starts: Int32Array;
  features: Int32Array;
  weights: Float32Array;
  dim: number;
}

export interface Clustering {
  k: number;
  /** k × dim, each centroid of unit length. */
  centroids: Float64Array;
  /** Row → its cluster, for the rows clustered (others -1). */
  assignment: Int32Array;
  /** Row → cosine similarity to its centroid. */
  similarity: Float64Array;
}

/** A small seeded PRNG (mulberry32): the same seed gives the same clustering on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Cosine similarity of a row with centroid `c` (both are of unit length). */
export function similarityTo(rows: SparseRows, row: number, centroids: Float64Array, c: number): number {
  const offset = c * rows.dim;
  let sum = 0;
  for (let i = rows.starts[row]; i < rows.starts[row + 1]; i++) sum += rows.weights[i] * centroids[offset + rows.features[i]];
  return sum;
}

function setToRow(rows: SparseRows, row: number, centroids: Float64Array, c: number): void {
  centroids.fill(0, c * rows.dim, (c + 1) * rows.dim);
  for (let i = rows.starts[row]; i < rows.starts[row + 1]; i++) centroids[c * rows.dim + rows.features[i]] = rows.weights[i];
}

/**
 * k-means++ seeding in cosine distance: each next seed is drawn with probability proportional to the
 * squared distance to the nearest seed so far, which spreads the seeds over the topics.
 */
export async function seedCentroids(rows: SparseRows, members: Int32Array, k: number, seed: number, yielder: Yielder): Promise<Float64Array> {
  const random = seededRandom(seed);
  const centroids = new Float64Array(k * rows.dim);
  const nearest = new Float64Array(members.length).fill(-Infinity);
  setToRow(rows, members[Math.floor(random() * members.length)], centroids, 0);
  for (let c = 1; c < k; c++) {
    let total = 0;
    for (let m = 0; m < members.length; m++) {
      nearest[m] = Math.max(nearest[m], similarityTo(rows, members[m], centroids, c - 1));
      total += (1 - nearest[m]) ** 2;
      if (yielder.due()) await yielder.giveWay();
    }
    let target = random() * total;
    let pick = members.length - 1;
    for (let m = 0; m < members.length; m++) {
      target -= (1 - nearest[m]) ** 2;
      if (target < 0) {
        pick = m;
        break;
      }
    }
    setToRow(rows, members[pick], centroids, c);
  }
  return centroids;
}

/** A k × dim matrix as dim × k (or back): assignment reads, for each feature of a row, the k centroids' weights side by side. */
export function transpose(matrix: Float64Array, rows: number, columns: number): Float64Array {
  const out = new Float64Array(matrix.length);
  for (let r = 0; r < rows; r++) for (let c = 0; c < columns; c++) out[c * rows + r] = matrix[r * columns + c];
  return out;
}

/**
 * Each centroid's cosine similarity with one row into `scores`, the centroids given feature by feature
 * (dim × k): a row's few features each read k neighbouring numbers, where k × dim would read k numbers
 * a dimension apart (a cache miss each). The sums run over the row's features in order, as similarityTo's.
 */
export function scoreRow(rows: SparseRows, row: number, byFeature: Float64Array, k: number, scores: Float64Array): void {
  scores.fill(0);
  for (let i = rows.starts[row]; i < rows.starts[row + 1]; i++) {
    const offset = rows.features[i] * k;
    const weight = rows.weights[i];
    for (let c = 0; c < k; c++) scores[c] += weight * byFeature[offset + c];
  }
}

/**
 * Spherical k-means (Lloyd's iterations on unit vectors with cosine similarity) from the given
 * centroids, over the rows in `members`. Ties go to the lower cluster; an emptied cluster restarts at
 * the row that fits its own cluster worst, so that k stays k and the result stays deterministic.
 */
export async function sphericalKMeans(
  rows: SparseRows,
  members: Int32Array,
  initial: Float64Array,
  k: number,
  maxIterations: number,
  yielder: Yielder,
): Promise<Clustering> {
  const rowCount = rows.starts.length - 1;
  const dim = rows.dim;
  // Feature by feature (dim × k) while iterating; k × dim again when returned.
  const centroids = transpose(initial, k, dim);
  const assignment = new Int32Array(rowCount).fill(-1);
  const similarity = new Float64Array(rowCount);
  const sizes = new Int32Array(k);
  const scores = new Float64Array(k);
  const norms = new Float64Array(k);

  // Indexed loops over `members`, not for-of: in an async function a typed array's iterator is not
  // optimised away, and it allocated a result per row and iteration (150 MB over a large report).
  for (let iteration = 0; iteration < maxIterations; iteration++) {
    let changed = 0;
    for (let m = 0; m < members.length; m++) {
      const row = members[m];
      scoreRow(rows, row, centroids, k, scores);
      let best = 0;
      let bestSimilarity = -Infinity;
      for (let c = 0; c < k; c++) if (scores[c] > bestSimilarity) [best, bestSimilarity] = [c, scores[c]];
      if (assignment[row] !== best) changed++;
      assignment[row] = best;
      similarity[row] = bestSimilarity;
      if (yielder.due()) await yielder.giveWay();
    }
    // Stop after an assignment, so that `similarity` measures against the centroids returned; once
    // fewer than 1 row in 500 moves, further rounds only polish.
    if (changed <= Math.floor(members.length / 500) || iteration === maxIterations - 1) break;

    centroids.fill(0);
    sizes.fill(0);
    for (let m = 0; m < members.length; m++) {
      const row = members[m];
      const c = assignment[row];
      sizes[c]++;
      for (let i = rows.starts[row]; i < rows.starts[row + 1]; i++) centroids[rows.features[i] * k + c] += rows.weights[i];
      if (yielder.due()) await yielder.giveWay();
    }
    norms.fill(0);
    for (let f = 0; f < dim; f++) for (let c = 0; c < k; c++) norms[c] += centroids[f * k + c] * centroids[f * k + c];
    for (let c = 0; c < k; c++) {
      if (sizes[c] === 0) {
        let worst = members[0];
        for (const row of members) if (similarity[row] < similarity[worst]) worst = row;
        for (let f = 0; f < dim; f++) centroids[f * k + c] = 0;
        for (let i = rows.starts[worst]; i < rows.starts[worst + 1]; i++) centroids[rows.features[i] * k + c] = rows.weights[i];
        // Taken: a second emptied cluster must restart elsewhere.
        similarity[worst] = 1;
        continue;
      }
      const norm = Math.sqrt(norms[c]);
      if (norm > 0) for (let f = 0; f < dim; f++) centroids[f * k + c] /= norm;
    }
  }
  return { k, centroids: transpose(centroids, dim, k), assignment, similarity };
}
