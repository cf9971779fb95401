/**
 * A report's result without the quotes of the given invites: every `quotes` list anywhere in it (per
 * question, per theme, overall) loses the entries whose linkID is one of them. Answers null when
 * nothing was taken out, so an unchanged report is not written.
 */
export function withoutQuotesOf(resultJson: string, linkIDs: ReadonlySet<string>): string | null {
  let removed = 0;
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'quotes' && Array.isArray(inner)) {
        const kept = inner.filter((q: { linkID?: unknown }) => !(typeof q?.linkID === 'string' && linkIDs.has(q.linkID)));
        removed += inner.length - kept.length;
        out[key] = kept.map(walk);
      } else {
        out[key] = walk(inner);
      }
    }
    return out;
  };
  const next = walk(JSON.parse(resultJson));
  return removed === 0 ? null : JSON.stringify(next);
}
