/**
 * Agreement between a grouping and human labels, as the clustering literature measures it: normalised
 * mutual information (arithmetic mean of the entropies, as scikit-learn's default) and the adjusted Rand
 * index. Answers left in no group count as one more group ("other"), so leaving answers out is not free.
 */
export function contingency(labels: readonly string[], groups: readonly (string | number)[]): { table: Map<string, Map<string, number>>; n: number } {
  const table = new Map<string, Map<string, number>>();
  labels.forEach((label, i) => {
    const group = String(groups[i]);
    let row = table.get(label);
    if (!row) table.set(label, (row = new Map()));
    row.set(group, (row.get(group) ?? 0) + 1);
  });
  return { table, n: labels.length };
}

function entropy(counts: Iterable<number>, n: number): number {
  let h = 0;
  for (const c of counts) if (c > 0) h -= (c / n) * Math.log(c / n);
  return h;
}

export function nmi(labels: readonly string[], groups: readonly (string | number)[]): number {
  const { table, n } = contingency(labels, groups);
  const labelCounts = new Map<string, number>();
  const groupCounts = new Map<string, number>();
  for (const [label, row] of table) {
    for (const [group, c] of row) {
      labelCounts.set(label, (labelCounts.get(label) ?? 0) + c);
      groupCounts.set(group, (groupCounts.get(group) ?? 0) + c);
    }
  }
  let mi = 0;
  for (const [label, row] of table) {
    for (const [group, c] of row) mi += (c / n) * Math.log((c * n) / (labelCounts.get(label)! * groupCounts.get(group)!));
  }
  const hl = entropy(labelCounts.values(), n);
  const hg = entropy(groupCounts.values(), n);
  return hl + hg === 0 ? 1 : (2 * mi) / (hl + hg);
}

const choose2 = (x: number) => (x * (x - 1)) / 2;

export function ari(labels: readonly string[], groups: readonly (string | number)[]): number {
  const { table, n } = contingency(labels, groups);
  const labelCounts = new Map<string, number>();
  const groupCounts = new Map<string, number>();
  let index = 0;
  for (const [label, row] of table) {
    for (const [group, c] of row) {
      index += choose2(c);
      labelCounts.set(label, (labelCounts.get(label) ?? 0) + c);
      groupCounts.set(group, (groupCounts.get(group) ?? 0) + c);
    }
  }
  const a = [...labelCounts.values()].reduce((s, c) => s + choose2(c), 0);
  const b = [...groupCounts.values()].reduce((s, c) => s + choose2(c), 0);
  const expected = (a * b) / choose2(n);
  const max = (a + b) / 2;
  return max === expected ? 1 : (index - expected) / (max - expected);
}
