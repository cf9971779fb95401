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
  const centroids = Float64Array.from(initial);
  const assignment = new Int32Array(rowCount).fill(-1);
  const similarity = new Float64Array(rowCount);
  const sizes = new Int32Array(k);

  // Indexed loops over `members`, not for-of: in an async function a typed array's iterator is not
  // optimised away, and it allocated a result per row and iteration (150 MB over a large report).
  for (let iteration = 0; iteration < maxIterations; iteration++) {
    let changed = 0;
    for (let m = 0; m < members.length; m++) {
      const row = members[m];
      let best = 0;
      let bestSimilarity = -Infinity;
      for (let c = 0; c < k; c++) {
        const s = similarityTo(rows, row, centroids, c);
        if (s > bestSimilarity) [best, bestSimilarity] = [c, s];
      }
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
      const offset = assignment[row] * rows.dim;
      sizes[assignment[row]]++;
      for (let i = rows.starts[row]; i < rows.starts[row + 1]; i++) centroids[offset + rows.features[i]] += rows.weights[i];
      if (yielder.due()) await yielder.giveWay();
    }
    for (let c = 0; c < k; c++) {
      if (sizes[c] === 0) {
        let worst = members[0];
        for (const row of members) if (similarity[row] < similarity[worst]) worst = row;
        setToRow(rows, worst, centroids, c);
        // Taken: a second emptied cluster must restart elsewhere.
        similarity[worst] = 1;
        continue;
      }
      normalise(centroids, c * rows.dim, rows.dim);
    }
  }
  return { k, centroids, assignment, similarity };
}

function normalise(vector: Float64Array, offset: number, length: number): void {
  let sum = 0;
  for (let i = offset; i < offset + length; i++) sum += vector[i] * vector[i];
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = offset; i < offset + length; i++) vector[i] /= norm;
}

/** The mean of some rows as a unit centroid: the one cluster when there is no structure to split. */
export function meanCentroid(rows: SparseRows, members: Int32Array): Float64Array {
  const centroid = new Float64Array(rows.dim);
  for (const row of members) for (let i = rows.starts[row]; i < rows.starts[row + 1]; i++) centroid[rows.features[i]] += rows.weights[i];
  normalise(centroid, 0, rows.dim);
  return centroid;
}

/**
 * The simplified silhouette (Hruschka et al.) in cosine distance: for each row, how much nearer it is
 * to its own centroid than to the next nearest, from -1 to 1, averaged. It needs k distances per row
 * instead of the n of the full silhouette, and rates how well k clusters separate the rows.
 */
export async function simplifiedSilhouette(rows: SparseRows, members: Int32Array, clustering: Clustering, yielder: Yielder): Promise<number> {
  let total = 0;
  for (const row of members) {
    const own = 1 - clustering.similarity[row];
    let other = Infinity;
    for (let c = 0; c < clustering.k; c++) {
      if (c !== clustering.assignment[row]) other = Math.min(other, 1 - similarityTo(rows, row, clustering.centroids, c));
    }
    const spread = Math.max(own, other);
    total += spread > 0 ? (other - own) / spread : 0;
    if (yielder.due()) await yielder.giveWay();
  }
  return total / members.length;
}
