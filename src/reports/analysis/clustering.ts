import { scoreRow, seedCentroids, sphericalKMeans, transpose, type SparseRows } from './kmeans';
import type { Yielder } from './yielder';

/** How a set of answers was grouped: each row's group (-1: none), and each group's centroid. */
export interface Grouping {
  k: number;
  /** k × dim, unit centroids. */
  centroids: Float64Array;
  /** Row → its group, or -1 (an empty row, or one like no group). */
  assignment: Int32Array;
  /** Row → cosine similarity to its group's centroid (0 for -1). */
  similarity: Float64Array;
}

export interface GroupingOptions {
  /** At most this many groups. */
  maxGroups: number;
  /** A group needs at least this many rows of the sample to stand. */
  minRows: number;
  /** Groups at least this akin (the mean similarity of their rows over their own cohesion) are one group. */
  mergeAt: number;
  /** A row less alike than this to every group's centroid is in none. */
  minFit: number;
  seed: number;
  /**
   * Row → a key of its own (a hash of its text): the sample, and the order k-means meets it in, follow
   * it rather than the rows' order, so that the same answers read in another order give the same groups.
   */
  rank?: Uint32Array;
}

/** The fitting sample: the number of groups and their centroids are found on at most this many rows, spread evenly. */
export const SAMPLE_SIZE = 3000;
/** k-means runs with this many times the groups wanted, and the fragments are merged back. */
const OVERSPLIT = 3;
const MAX_ITERATIONS = 15;

function evenSample(rows: SparseRows, size: number, rank?: Uint32Array): Int32Array {
  const nonEmpty: number[] = [];
  for (let r = 0; r + 1 < rows.starts.length; r++) if (rows.starts[r + 1] > rows.starts[r]) nonEmpty.push(r);
  if (rank) nonEmpty.sort((a, b) => rank[a] - rank[b] || a - b);
  if (nonEmpty.length <= size) return Int32Array.from(nonEmpty);
  return Int32Array.from({ length: size }, (_, i) => nonEmpty[Math.floor((i * nonEmpty.length) / size)]);
}

function norm(vector: Float64Array, offset: number, dim: number): number {
  let sum = 0;
  for (let i = offset; i < offset + dim; i++) sum += vector[i] * vector[i];
  return Math.sqrt(sum);
}

/**
 * Groups answers' vectors, the number of groups found from the data (at most maxGroups):
 *  1. spherical k-means with OVERSPLIT × maxGroups clusters on an even sample (k-means++ seeds from a
 *     fixed seed): many small, tight fragments, which k-means finds far more reliably than a few large
 *     groups (it does not have to guess the groups' boundaries, only to cut the data finely);
 *  2. agglomerative merging of the fragments: by Ward's criterion down to maxGroups, then on, the most
 *     akin pair first, while two groups are at least `mergeAt` akin (see kinship): fragments of one
 *     topic merge whatever the study's size, and distinct topics stay apart;
 *  3. a fragment too small to be a group (minRows) is dissolved;
 *  4. every row (not only the sample's) joins the group whose centroid it is most like, if at least
 *     `minFit` alike; else none.
 */
export async function groupRows(rows: SparseRows, options: GroupingOptions, yielder: Yielder): Promise<Grouping> {
  const count = rows.starts.length - 1;
  const picked = evenSample(rows, SAMPLE_SIZE, options.rank);
  const none: Grouping = { k: 0, centroids: new Float64Array(0), assignment: new Int32Array(count).fill(-1), similarity: new Float64Array(count) };
  if (picked.length < Math.max(2, options.minRows) || rows.dim === 0) return none;

  // The sample on its own, over the features it has: k-means and the merging loop over every dimension
  // for each group, and most of a large study's vocabulary (rare words) is not in the sample. A feature
  // no sampled row has is 0 in every centroid, so leaving it out changes no sum.
  const compact = sampleRows(rows, picked);
  const { sampled } = compact;
  const dim = sampled.dim;
  const sample = Int32Array.from(picked, (_, i) => i);
  const k0 = Math.max(1, Math.min(OVERSPLIT * options.maxGroups, Math.floor(sample.length / Math.max(2, options.minRows))));
  const seeds = await seedCentroids(sampled, sample, k0, options.seed, yielder);
  const fragments = await sphericalKMeans(sampled, sample, seeds, k0, MAX_ITERATIONS, yielder);
  const result = await mergeFragments(sampled, fragments.assignment, k0, options, yielder);
  if (result === null) return none;

  // The groups' centroids in the space of all the rows, for every row to join one.
  const { centroids: local, k } = result;
  const centroids = new Float64Array(k * rows.dim);
  for (let g = 0; g < k; g++) for (let f = 0; f < dim; f++) centroids[g * rows.dim + compact.featureOf[f]] = local[g * dim + f];
  return assignAll(rows, centroids, k, options.minFit, yielder);
}

/** Some rows (row i is picked[i]) over the features they have, renumbered in order; featureOf maps them back. */
function sampleRows(rows: SparseRows, picked: Int32Array): { sampled: SparseRows; featureOf: Int32Array } {
  const local = new Int32Array(rows.dim).fill(-1);
  const starts = new Int32Array(picked.length + 1);
  for (let i = 0; i < picked.length; i++) {
    const row = picked[i];
    starts[i + 1] = starts[i] + rows.starts[row + 1] - rows.starts[row];
    for (let j = rows.starts[row]; j < rows.starts[row + 1]; j++) local[rows.features[j]] = 0;
  }
  // Ascending, as the rows' own features are: sums over features then run in the same order.
  let dim = 0;
  for (let f = 0; f < rows.dim; f++) if (local[f] === 0) local[f] = dim++;
  const featureOf = new Int32Array(dim);
  for (let f = 0; f < rows.dim; f++) if (local[f] >= 0) featureOf[local[f]] = f;
  const features = new Int32Array(starts[picked.length]);
  const weights = new Float32Array(starts[picked.length]);
  for (let i = 0; i < picked.length; i++) {
    const row = picked[i];
    for (let j = rows.starts[row], at = starts[i]; j < rows.starts[row + 1]; j++, at++) {
      features[at] = local[rows.features[j]];
      weights[at] = rows.weights[j];
    }
  }
  return { sampled: { starts, features, weights, dim }, featureOf };
}

/**
 * The fragments k-means found among `sampled`'s rows merged into groups (steps 2 and 3 of groupRows):
 * the groups' unit centroids in the sample's space, or null when none stands.
 */
async function mergeFragments(rows: SparseRows, fragmentOf: Int32Array, k0: number, options: GroupingOptions, yielder: Yielder): Promise<{ k: number; centroids: Float64Array } | null> {
  const dim = rows.dim;
  // Each fragment's sum of member vectors: merging two adds their sums, so the merged centroid is exact.
  const sums = new Float64Array(k0 * dim);
  const sizes = new Float64Array(k0);
  for (let row = 0; row + 1 < rows.starts.length; row++) {
    const c = fragmentOf[row];
    sizes[c]++;
    for (let i = rows.starts[row]; i < rows.starts[row + 1]; i++) sums[c * dim + rows.features[i]] += rows.weights[i];
  }
  if (yielder.due()) await yielder.giveWay();
  const alive = Array.from({ length: k0 }, (_, c) => sizes[c] > 0);
  // Dot products of the fragments' sums: a merged fragment's are the sums of its parts', so merging costs O(k).
  const dots = new Float64Array(k0 * k0);
  for (let a = 0; a < k0; a++) {
    for (let b = a; b < k0; b++) {
      let dot = 0;
      for (let i = 0; i < dim; i++) dot += sums[a * dim + i] * sums[b * dim + i];
      dots[a * k0 + b] = dots[b * k0 + a] = dot;
    }
    if (yielder.due()) await yielder.giveWay();
  }
  const normOf = (c: number) => Math.sqrt(Math.max(0, dots[c * k0 + c]));
  /** Mean similarity of a group's pairs of rows (its cohesion): (|sum|² - n) / (n (n - 1)). */
  const cohesion = (c: number) => (sizes[c] > 1 ? (dots[c * k0 + c] - sizes[c]) / (sizes[c] * (sizes[c] - 1)) : 1);
  /**
   * How alike two groups are, relative to how alike each group's own answers are: the mean similarity
   * of a row of one to a row of the other, over the geometric mean of their cohesions. About 1 for two
   * halves of one topic whatever their size, far less for two topics; a ratio of means, it does not
   * grow as groups grow (as the similarity of their centroids would), so large groups do not swallow others.
   */
  const kinship = (a: number, b: number) => dots[a * k0 + b] / (sizes[a] * sizes[b]) / Math.sqrt(Math.max(1e-9, cohesion(a) * cohesion(b)));
  let groups = alive.filter(Boolean).length;
  for (;;) {
    // Down to maxGroups, Ward's criterion for unit vectors: merging a and b lowers the spherical k-means
    // objective (the sum of each member's similarity to its centroid, which is |sum|) by
    // |a| + |b| - |a + b|, and the cheapest merge goes first, so small fragments join before large
    // groups do and no group swallows the others. Below maxGroups, only groups whose centroids are at
    // least `mergeAt` alike merge, the most alike first: they are fragments of one topic.
    let choice = Infinity;
    let pair: [number, number] = [-1, -1];
    for (let a = 0; a < k0; a++) {
      if (!alive[a]) continue;
      const na = normOf(a);
      for (let b = a + 1; b < k0; b++) {
        if (!alive[b]) continue;
        const nb = normOf(b);
        const score = groups > options.maxGroups ? na + nb - Math.sqrt(Math.max(0, na * na + nb * nb + 2 * dots[a * k0 + b])) : -kinship(a, b);
        if (score < choice) [choice, pair] = [score, [a, b]];
      }
    }
    if (pair[0] < 0 || (groups <= options.maxGroups && -choice < options.mergeAt)) break;
    const [a, b] = pair;
    for (let c = 0; c < k0; c++) {
      if (c === a || c === b) continue;
      dots[a * k0 + c] = dots[c * k0 + a] = dots[a * k0 + c] + dots[b * k0 + c];
    }
    dots[a * k0 + a] += dots[b * k0 + b] + 2 * dots[a * k0 + b];
    for (let i = 0; i < dim; i++) sums[a * dim + i] += sums[b * dim + i];
    sizes[a] += sizes[b];
    alive[b] = false;
    groups--;
    if (yielder.due()) await yielder.giveWay();
  }
  const norms = Float64Array.from({ length: k0 }, (_, c) => normOf(c));

  const kept: number[] = [];
  for (let c = 0; c < k0; c++) if (alive[c] && sizes[c] >= options.minRows && norms[c] > 0) kept.push(c);
  if (!kept.length) return null;
  const k = kept.length;
  const centroids = new Float64Array(k * dim);
  kept.forEach((c, g) => {
    for (let i = 0; i < dim; i++) centroids[g * dim + i] = sums[c * dim + i] / norms[c];
  });
  return { k, centroids };
}

/** Every row to the centroid it is most like (ties: the lower group), or to none when less alike than minFit or empty. */
export async function assignAll(rows: SparseRows, centroids: Float64Array, k: number, minFit: number, yielder: Yielder): Promise<Grouping> {
  const count = rows.starts.length - 1;
  const assignment = new Int32Array(count).fill(-1);
  const similarity = new Float64Array(count);
  const scores = new Float64Array(k);
  const byFeature = transpose(centroids, k, rows.dim);
  for (let r = 0; r < count; r++) {
    if (rows.starts[r + 1] === rows.starts[r]) continue;
    scoreRow(rows, r, byFeature, k, scores);
    let best = -1;
    let bestScore = minFit;
    for (let g = 0; g < k; g++) if (scores[g] > bestScore || (best < 0 && scores[g] === bestScore && bestScore > 0)) [best, bestScore] = [g, scores[g]];
    if (best >= 0) {
      assignment[r] = best;
      similarity[r] = bestScore;
    }
    if (yielder.due()) await yielder.giveWay();
  }
  return { k, centroids, assignment, similarity };
}

/** Group centroids recomputed from their members (unit length), e.g. after groups were dissolved or merged. */
export function centroidsOf(rows: SparseRows, assignment: Int32Array, k: number): Float64Array {
  const dim = rows.dim;
  const centroids = new Float64Array(k * dim);
  for (let r = 0; r < assignment.length; r++) {
    const g = assignment[r];
    if (g < 0) continue;
    for (let i = rows.starts[r]; i < rows.starts[r + 1]; i++) centroids[g * dim + rows.features[i]] += rows.weights[i];
  }
  for (let g = 0; g < k; g++) {
    const n = norm(centroids, g * dim, dim);
    if (n > 0) for (let i = g * dim; i < (g + 1) * dim; i++) centroids[i] /= n;
  }
  return centroids;
}

/**
 * Each row's similarity to the rest of its group (its group's sum of member vectors without it, as a unit
 * vector); 0 for rows in no group or alone in theirs. Unlike the similarity to a centroid the row itself
 * pulled, this shows a row held in its group by a word it shares with only one other member.
 */
export function leaveOneOutFit(rows: SparseRows, assignment: Int32Array, k: number): Float64Array {
  const dim = rows.dim;
  const sums = new Float64Array(k * dim);
  for (let r = 0; r < assignment.length; r++) {
    const g = assignment[r];
    if (g < 0) continue;
    for (let i = rows.starts[r]; i < rows.starts[r + 1]; i++) sums[g * dim + rows.features[i]] += rows.weights[i];
  }
  const squares = Float64Array.from({ length: k }, (_, g) => {
    let sum = 0;
    for (let i = g * dim; i < (g + 1) * dim; i++) sum += sums[i] * sums[i];
    return sum;
  });
  const fit = new Float64Array(assignment.length);
  for (let r = 0; r < assignment.length; r++) {
    const g = assignment[r];
    if (g < 0) continue;
    let dot = 0;
    let self = 0;
    for (let i = rows.starts[r]; i < rows.starts[r + 1]; i++) {
      dot += rows.weights[i] * sums[g * dim + rows.features[i]];
      self += rows.weights[i] * rows.weights[i];
    }
    const rest = squares[g] - 2 * dot + self;
    fit[r] = rest > 1e-12 ? (dot - self) / Math.sqrt(rest) : 0;
  }
  return fit;
}
