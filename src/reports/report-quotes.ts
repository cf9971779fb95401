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

/** Put in place of a description that repeated an erased answer when no other answer of its theme is quoted. */
export const WITHDRAWN_DESCRIPTION = 'This description was withdrawn: it repeated the words of an interviewee whose data has been erased.';

const overlaps = (a: string, b: string) => a.length > 0 && b.length > 0 && (a.includes(b) || b.includes(a));

/**
 * Themes whose description repeats a quote of the given invites (an offline description is its theme's
 * first quote, an excerpt of its most typical answer) get the first quote of another invite instead, or
 * WITHDRAWN_DESCRIPTION: the erased words leave the description with the quote.
 */
function withoutDescriptionsOf(value: unknown, linkIDs: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((inner) => withoutDescriptionsOf(inner, linkIDs));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) out[key] = withoutDescriptionsOf(inner, linkIDs);
  const quotes = Array.isArray(out.quotes) ? (out.quotes as (QuoteLike & { text?: unknown })[]) : null;
  if (quotes && typeof out.description === 'string') {
    const erased = (q: QuoteLike) => typeof q?.linkID === 'string' && linkIDs.has(q.linkID);
    const description = out.description;
    if (quotes.some((q) => erased(q) && typeof q.text === 'string' && overlaps(q.text, description))) {
      const kept = quotes.find((q) => !erased(q) && typeof q?.text === 'string');
      out.description = (kept?.text as string | undefined) ?? WITHDRAWN_DESCRIPTION;
    }
  }
  return out;
}

/**
 * A report's result without the quotes of the given invites: every `quotes` list anywhere in it (per
 * question, per theme, overall) loses the entries whose linkID is one of them. Answers null when
 * nothing was taken out, so an unchanged report is not written.
 */
export function withoutQuotesOf(resultJson: string, linkIDs: ReadonlySet<string>): string | null {
  let removed = 0;
  const next = mapQuoteLists(withoutDescriptionsOf(JSON.parse(resultJson), linkIDs), (quotes) => {
    const kept = quotes.filter((q) => !(typeof q?.linkID === 'string' && linkIDs.has(q.linkID)));
    removed += quotes.length - kept.length;
    return kept;
  });
  return removed === 0 ? null : JSON.stringify(next);
}
