/**
 * The load generator of `npm run bench`, run as its own process so it does not share an event loop
 * with the harness or the server under test. Drives one URL, or many paths spread over the connections
 * (`paths`), with autocannon: an unrecorded warm-up, then the measured run. Prints one JSON object
 * (LoadResult) on stdout.
 *
 * Latency percentiles are computed here from every 2xx response time autocannon reports (float
 * milliseconds); autocannon's own histogram rounds to whole milliseconds, too coarse for fast routes.
 *
 * Usage: node dist/bench/load.js '<LoadConfig as JSON>'
 */
import { createRequire } from 'node:module';
import { MEASURING_LINE } from './cli';

export interface LoadConfig {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /**
   * `[<n>]` in the body becomes a number no other request of the run had. Not autocannon's own
   * idReplacement: it sets Content-Length for ids 27 characters longer than `[<id>]` where its hyperid
   * makes 18, and the server waits for bytes that never come.
   */
  uniqueBodies?: boolean;
  /**
   * Paths on url's origin, spread over the connections instead of url's own: connection c of n takes
   * paths c, c + n, c + 2n, ... and cycles through them, one request at a time. With fewer paths than
   * connections, connections share them.
   */
  paths?: string[];
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  /** Requests per second over all connections (autocannon's overallRate); unset: as fast as the server answers. */
  rate?: number;
}

export interface LoadResult {
  /** 2xx responses in the measured run. */
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  seconds: number;
  reqPerSec: number;
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
}

interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats: Record<string, { count: number }>;
}

interface AutocannonInstance {
  on(event: 'response', listener: (client: unknown, statusCode: number, bytes: number, responseTime: number) => void): void;
}

interface AutocannonRequest {
  method: string;
  path: string;
  body?: string;
  /** Called before each request is sent; what it returns is sent. */
  setupRequest?: (request: AutocannonRequest) => AutocannonRequest;
}

interface AutocannonClient {
  setRequests(requests: AutocannonRequest[]): void;
}

type Autocannon = (opts: Record<string, unknown>, done: (err: Error | null, result: AutocannonResult) => void) => AutocannonInstance;

// autocannon ships no type declarations; the little this file uses is typed above.
const autocannon = createRequire(__filename)('autocannon') as Autocannon;

/**
 * Each new connection of a run gets its own share of config.paths (see LoadConfig.paths), or url's path
 * alone; with uniqueBodies, each request is numbered as it is sent.
 */
function spread(config: LoadConfig): ((client: AutocannonClient) => void) | undefined {
  if (!config.paths?.length && !config.uniqueBodies) return undefined;
  const { pathname, search } = new URL(config.url);
  const paths = config.paths?.length ? config.paths : [pathname + search];
  const groups = Math.min(paths.length, config.connections);
  let next = 0;
  let sent = 0;
  const numbered = config.uniqueBodies ? (request: AutocannonRequest) => ({ ...request, body: config.body?.replace('[<n>]', String(++sent)) }) : undefined;
  return (client) => {
    const slot = next++ % groups;
    client.setRequests(paths.filter((_, i) => i % groups === slot).map((path) => ({ method: config.method, path, body: config.body, setupRequest: numbered })));
  };
}

function run(config: LoadConfig, seconds: number): Promise<{ result: AutocannonResult; latencies: number[] }> {
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    const instance = autocannon(
      {
        url: config.url,
        method: config.method,
        headers: config.headers,
        body: config.body,
        setupClient: spread(config),
        connections: config.connections,
        duration: seconds,
        ...(config.rate ? { overallRate: config.rate } : {}),
        timeout: 60,
      },
      (err, result) => (err ? reject(err) : resolve({ result, latencies })),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '') as LoadConfig;
  if (config.warmupSeconds > 0) await run(config, config.warmupSeconds);
  // The parent reads the server's CPU time from here to the end (MEASURING_LINE, measure.ts).
  process.stdout.write(`${MEASURING_LINE}\n`);
  const { result, latencies } = await run(config, config.durationSeconds);
  latencies.sort((a, b) => a - b);
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stat.count;
  const out: LoadResult = {
    ok: latencies.length,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    seconds: result.duration,
    reqPerSec: latencies.length / result.duration,
    latencyMs: {
      mean: latencies.reduce((a, b) => a + b, 0) / (latencies.length || 1),
      p50: percentile(latencies, 50),
      p90: percentile(latencies, 90),
      p99: percentile(latencies, 99),
      max: latencies.length ? latencies[latencies.length - 1] : NaN,
    },
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`load: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
