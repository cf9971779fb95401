import parsePrometheusTextFormat from 'parse-prometheus-text-format';

/** One sample of a family as parse-prometheus-text-format gives it (prom2json's shape). */
export interface PromSample {
  labels?: Record<string, string>;
  value?: string;
  /** Histograms: cumulative counts by upper bound, and the sum and count. */
  buckets?: Record<string, string>;
  count?: string;
  sum?: string;
}

export interface PromFamily {
  name: string;
  help: string;
  type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
  metrics: PromSample[];
}

/** A scrape, parsed by a Prometheus text-format parser (not by hand), by family name. */
export async function scrape(url: string): Promise<Map<string, PromFamily>> {
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`scrape ${url}: ${res.status}`);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  const families = new Map((parsePrometheusTextFormat(text) as PromFamily[]).map((f) => [f.name, f]));
  // The parser folds a histogram's labelled series into one sample without labels (it was written for
  // unlabelled ones). Each series' _count is still a sample of its own: give the parser those lines again
  // as a counter family, and keep its per-series counts (labels and all) beside the histogram.
  for (const family of families.values()) {
    if (family.type !== 'HISTOGRAM') continue;
    const counts = text.split('\n').filter((line) => line.startsWith(`${family.name}_count{`) || line.startsWith(`${family.name}_count `));
    const [series] = parsePrometheusTextFormat(`# TYPE ${family.name}_count counter\n${counts.join('\n')}\n`) as PromFamily[];
    family.metrics = series.metrics.map((m) => ({ labels: m.labels, count: m.value }));
  }
  return families;
}

/** The sum of a counter's or gauge's samples whose labels include `labels`. */
export function valueOf(families: Map<string, PromFamily>, name: string, labels: Record<string, string> = {}): number {
  const family = families.get(name);
  if (!family) return 0;
  return family.metrics
    .filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))
    .reduce((sum, m) => sum + Number(m.value ?? m.count ?? 0), 0);
}
