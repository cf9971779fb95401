/**
 * What metrics and tracing cost: products/getOne on four servers of the service started for each round: as the
 * main run starts it (both off), with METRICS_PORT set, with OTEL_EXPORTER_OTLP_ENDPOINT set (every request traced: the SDK's
 * default sampler), and traced with the standard ratio sampler at 10% (what a busy service runs), at
 * the same load, the four taken in turns of a second (measure.ts's runLoadInTurns), round by round;
 * throughput as a ratio to both off.
 *
 * The traces go to a stand-in collector in this process that reads each export and answers 200, as a
 * collector does: the service pays for making, batching, encoding (protobuf) and sending its spans, not
 * for a collector's work. The metrics listener is scraped every 15 s, as Prometheus would.
 */
import { Server as HttpServer, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Options, log, warmupSeconds } from './cli';
import { Dataset } from './dataset';
import type { LoadConfig } from './load';
import { Measurement, runLoad, runLoadInTurns } from './measure';
import { Server, ServerSpec, freePort, http, startServer, stopChild } from './processes';
import type { ExtraSection } from './report';

/**
 * Throughput against both off: with metrics on; with tracing at its documented default (parent-based,
 * 10% of new traces, which the sampled configuration sets explicitly); and with every request traced.
 */
export const OBSERVABILITY_TARGETS = { metrics: 0.95, sampled: 0.9, tracing: 0.7 } as const;
/** The share of traces the sampled configuration keeps (OTEL_TRACES_SAMPLER_ARG). */
const SAMPLED_RATIO = 0.1;
const CONFIG_NAMES: Record<keyof ObservabilityRun['runs'], string> = {
  off: 'metrics and tracing off',
  metrics: 'metrics on',
  tracing: 'tracing on',
  sampled: `tracing on, ${SAMPLED_RATIO * 100}% sampled`,
};

export interface ObservabilityRun {
  /** Per configuration (off, metrics, tracing, tracing sampled at 10%), one measurement per round. */
  runs: Record<'off' | 'metrics' | 'tracing' | 'sampled', Measurement[]>;
  /** What the stand-in collector received: export requests and bytes. */
  exports: { requests: number; bytes: number };
}

/** A stand-in OTLP/HTTP collector: reads each export, answers 200 with an empty response. */
async function startSink(): Promise<{ url: string; server: HttpServer; stats: ObservabilityRun['exports'] }> {
  const stats = { requests: 0, bytes: 0 };
  const server = createServer((req, res) => {
    req.on('data', (c: Buffer) => (stats.bytes += c.length));
    req.on('end', () => {
      stats.requests++;
      res.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, stats };
}

function getOne(server: Server, d: Dataset, token: string, o: Options): LoadConfig {
  return {
    url: `http://127.0.0.1:${server.port}/v1/products/getOne?productID=${encodeURIComponent(d.productID)}`,
    method: 'GET',
    headers: { Authorization: `Bearer ${token}` },
    connections: o.connections,
    durationSeconds: o.duration,
    warmupSeconds: warmupSeconds(o),
  };
}

/**
 * The four configurations, each a server started here from the service's spec, and stopped after. `off`
 * is not the main run's service: after every other measurement that one's heap had grown to about a GB,
 * and its CPU per request moved by 10-40% from one run to the next (bench/README.md), where servers
 * started alike and warmed alike differ only by their configuration. Every round starts the four anew:
 * two processes of one build do not end up alike (the paired section's A/A run, bench/README.md), so a
 * ratio measured on one set of processes is a figure of that set; the median over rounds is the
 * configuration's.
 */
export async function measureObservability(spec: ServerSpec, d: Dataset, token: string, o: Options): Promise<ObservabilityRun> {
  const sink = await startSink();
  const runs: ObservabilityRun['runs'] = { off: [], metrics: [], tracing: [], sampled: [] };
  try {
    for (let round = 1; round <= o.rounds; round++) {
      const configs = await startConfigurations(spec, sink.url);
      try {
        // One unmeasured run each first, else the round measures start-up work (servers just started
        // measured 1.8-2.2x the CPU per request of a warm one in a run of 2 s rounds).
        for (const [, server] of configs) await runLoad(server, getOne(server, d, token, o), 'products/getOne');
        const order = round % 2 === 1 ? configs : [...configs].reverse();
        // The four in turns (runLoadInTurns), as the operations above.
        const measured = await runLoadInTurns(
          order.map(([, server]) => server),
          order.map(([, server]) => getOne(server, d, token, o)),
          'products/getOne',
        );
        for (const [i, [name]] of order.entries()) {
          const m = measured[i];
          if (m.non2xx || m.errors) throw new Error(`products/getOne with ${name}: ${m.non2xx} non-2xx, ${m.errors} errors`);
          runs[name].push(m);
          log(`[${round}/${o.rounds}] products/getOne, ${CONFIG_NAMES[name]}: ${m.reqPerSec.toFixed(0)} req/s, p99 ${m.latencyMs.p99.toFixed(2)} ms, CPU ${m.cpuUsPerRequest.toFixed(0)} µs/request`);
        }
      } finally {
        await stopConfigurations(configs);
      }
    }
    if (sink.stats.requests === 0) throw new Error('the service with tracing exported no spans to the stand-in collector');
    return { runs, exports: { ...sink.stats } };
  } finally {
    await new Promise((resolve) => sink.server.close(resolve));
  }
}

type Configurations = (readonly [keyof ObservabilityRun['runs'], Server & { scrape?: NodeJS.Timeout }])[];

/** The four servers of one round; any already started are stopped when one fails to start. */
async function startConfigurations(spec: ServerSpec, sinkUrl: string): Promise<Configurations> {
  const started: Configurations = [];
  try {
    started.push(['off', await startServer({ ...spec, name: 'service-off', label: 'service, metrics and tracing off', phrase: 'the service with metrics and tracing off' })]);
    const metricsPort = await freePort();
    const metrics = await startServer({ ...spec, name: 'service-metrics', label: 'service, metrics on', phrase: 'the service with metrics', env: { ...spec.env, METRICS_PORT: String(metricsPort) } });
    started.push(['metrics', { ...metrics, scrape: setInterval(() => void http(metricsPort, 'GET', '/metrics').catch(() => undefined), 15_000) }]);
    started.push([
      'tracing',
      await startServer({
        ...spec,
        name: 'service-tracing',
        label: 'service, tracing every request',
        phrase: 'the service tracing every request',
        // The service's default keeps 10% of new traces: every request is traced only when asked.
        env: { ...spec.env, OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl, OTEL_SERVICE_NAME: 'irs-bench', OTEL_TRACES_SAMPLER: 'always_on' },
      }),
    ]);
    started.push([
      'sampled',
      await startServer({
        ...spec,
        name: 'service-sampled',
        label: 'service, tracing at the default (10% sampled)',
        phrase: 'the service with sampled tracing',
        env: { ...spec.env, OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl, OTEL_SERVICE_NAME: 'irs-bench', OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: String(SAMPLED_RATIO) },
      }),
    ]);
    return started;
  } catch (error) {
    await stopConfigurations(started);
    throw error;
  }
}

async function stopConfigurations(configs: Configurations): Promise<void> {
  for (const [, server] of configs) clearInterval(server.scrape);
  await Promise.all(configs.map(([, server]) => stopChild(server.child)));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const num = (x: number, digits = 0) => x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');

export function observabilitySection(run: ObservabilityRun): ExtraSection {
  const rps = (k: keyof ObservabilityRun['runs']) => median(run.runs[k].map((m) => m.reqPerSec));
  const p99 = (k: keyof ObservabilityRun['runs']) => median(run.runs[k].map((m) => m.latencyMs.p99));
  const ratio = { metrics: rps('metrics') / rps('off'), tracing: rps('tracing') / rps('off'), sampled: rps('sampled') / rps('off') };
  const cpu = (k: keyof ObservabilityRun['runs']) => median(run.runs[k].map((m) => m.cpuUsPerRequest));
  const row = (k: keyof ObservabilityRun['runs'], what: string, target: string) =>
    `| ${what} | ${num(rps(k))} | ${k === 'off' ? '1' : num(rps(k) / rps('off'), 3)} | ${num(p99(k), 2)} | ${num(cpu(k))} | ${k === 'off' ? '1' : num(cpu(k) / cpu('off'), 3)} | ${target} |`;
  return {
    title: 'Observability overhead (products/getOne)',
    lines: [
      `The service started four times for each round of this section, alike but for this: metrics and tracing off, with METRICS_PORT set (scraped every 15 s), with OTEL_EXPORTER_OTLP_ENDPOINT set, every request traced and, as a busy service would run it, 10% of them (spans of both exported as protobuf to a stand-in collector that answers 200: ${num(run.exports.requests)} exports, ${num(run.exports.bytes / 2 ** 20, 1)} MB); ${run.runs.off.length} round${run.runs.off.length > 1 ? 's' : ''}, medians over the rounds' sets of servers, the four in turns, after one unmeasured run on each.`,
      '',
      '| configuration | req/s | ratio to off | p99 ms | CPU µs/request | CPU ratio to off | target |',
      '|---|--:|--:|--:|--:|--:|---|',
      row('off', 'metrics and tracing off', '–'),
      row('metrics', 'metrics on', `≥ ${OBSERVABILITY_TARGETS.metrics}`),
      row('tracing', 'tracing on (every request)', `≥ ${OBSERVABILITY_TARGETS.tracing}`),
      row('sampled', `tracing on, the default: ${SAMPLED_RATIO * 100}% sampled (OTEL_TRACES_SAMPLER=parentbased_traceidratio)`, `≥ ${OBSERVABILITY_TARGETS.sampled}`),
    ],
    verdicts: [
      `metrics on: ${verdict(ratio.metrics >= OBSERVABILITY_TARGETS.metrics)}: ${num(ratio.metrics, 3)}× the throughput with both off (target ≥ ${OBSERVABILITY_TARGETS.metrics})`,
      `tracing on, the default (${SAMPLED_RATIO * 100}% sampled): ${verdict(ratio.sampled >= OBSERVABILITY_TARGETS.sampled)}: ${num(ratio.sampled, 3)}× the throughput with both off (target ≥ ${OBSERVABILITY_TARGETS.sampled})`,
      `tracing on, every request traced: ${verdict(ratio.tracing >= OBSERVABILITY_TARGETS.tracing)}: ${num(ratio.tracing, 3)}× the throughput with both off (target ≥ ${OBSERVABILITY_TARGETS.tracing})`,
    ],
  };
}
