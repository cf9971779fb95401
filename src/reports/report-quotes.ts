interface QuoteLike {
  linkID?: unknown;
}

/** Every `quotes` list anywhere in a report's result (per question, per theme, overall), rewritten by `edit`. */
function mapQuoteLists(value: unknown, edit: (quotes: QuoteLike[]) => QuoteLike[]): unknown {
  if (Array.isArray(value)) return value.map((inner) => mapQuoteLists(inner, edit));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = key === 'quotes' && Array.isArray(inner) ? edit(inner as QuoteLike[]).map((q) => mapQuoteLists(q, edit)) : mapQuoteLists(inner, edit);
  }
  return out;
}

/** The invites a report's result quotes, each once. */
export function quotedLinks(resultJson: string): string[] {
  const links = new Set<string>();
  mapQuoteLists(JSON.parse(resultJson), (quotes) => {
    for (const q of quotes) if (typeof q?.linkID === 'string') links.add(q.linkID);
    return quotes;
  });
  return [...links];
}

/**
 * A report's result without the quotes of the given invites: every `quotes` list anywhere in it (per
 * question, per theme, overall) loses the entries whose linkID is one of them. Answers null when
 * nothing was taken out, so an unchanged report is not written.
 */
export function withoutQuotesOf(resultJson: string, linkIDs: ReadonlySet<string>): string | null {
  let removed = 0;
  const next = mapQuoteLists(JSON.parse(resultJson), (quotes) => {
    const kept = quotes.filter((q) => !(typeof q?.linkID === 'string' && linkIDs.has(q.linkID)));
    removed += quotes.length - kept.length;
    return kept;
  });
  return removed === 0 ? null : JSON.stringify(next);
}
