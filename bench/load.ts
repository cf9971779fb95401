/**
 * The load generator of `npm run bench`, run as its own process so it does not share an event loop
 * with the harness or the server under test. Drives one URL, or many paths spread over the connections
 * (`paths`), with autocannon: an unrecorded warm-up, then the measured run. Prints one JSON object
 * (LoadResult) on stdout.
 *
 * Latency percentiles are computed here from every 2xx response time autocannon reports (float
 * milliseconds); autocannon's own histogram rounds to whole milliseconds, too coarse for fast routes.
 *
 * With a TurnsPlan instead, several servers share the measured time in turns (see TurnsPlan), and the
 * result is one LoadResult per target, as a JSON array.
 *
 * Usage: node dist/bench/load.js '<LoadConfig or TurnsPlan as JSON>'
 */
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { MEASURING_LINE, TURN_DONE_LINE, TURN_LINE } from './cli';

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
  /**
   * 2xx answers per second. Measured alone: over the run. In turns: over each turn's steady part, from
   * the answer by which every connection has had one to the last answer (Window), unless the slowest
   * target's warm-up promised too few answers for one (then over the run, in one turn).
   */
  reqPerSec: number;
  /** In turns: how many turns each target had (see TurnsPlan). */
  turns?: number;
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
}

/**
 * Several targets measured in turns: after each target's warm-up, up to `maxTurns` rounds in which
 * every target gets an equal share of `durationSeconds` of load, the order reversed at every round.
 * Before a turn the generator writes `TURN_LINE <target>` and waits for a line on stdin (the parent
 * reads the server's CPU time, after the previous server has settled), after it `TURN_DONE_LINE
 * <target>`. A target's result sums its turns.
 *
 * Why: on this kind of machine the host's speed changes by 2-3x within minutes. One server's 5 s of
 * load and the next one's were different machines, and the same build's req/s moved by 20-40% between
 * measurements; in short turns, every server meets every moment of the machine alike.
 *
 * A turn starts with no request in flight and ends with a connection's worth abandoned, so it must be
 * long beside one request's latency: fewer turns are taken when the slowest target's warm-up rate gives
 * less than ANSWERS_PER_CONNECTION_TURN answers per connection in a turn (one turn for createInvites of
 * 1,000, which answers in about a second under load). Throughput is counted in the steady part of each
 * turn (see Window).
 */
export interface TurnsPlan {
  targets: LoadConfig[];
  maxTurns: number;
}

/** At least this many answers per connection in a turn (see TurnsPlan): the requests cut off at its end are 1/20 of its answers at most. */
const ANSWERS_PER_CONNECTION_TURN = 20;

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

/**
 * The steady part of a run: from the answer by which every connection has had one (the pipeline full)
 * to the last answer; `answers` counts those after its start. Answers per second over it are the
 * server's rate with as many requests in flight as connections, without the ramp at the start or the
 * requests cut off at the end.
 */
interface Window {
  answers: number;
  seconds: number;
}

function run(config: LoadConfig, seconds: number): Promise<{ result: AutocannonResult; latencies: number[]; window: Window }> {
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    let start = 0n;
    let last = 0n;
    let answers = 0;
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
      (err, result) => (err ? reject(err) : resolve({ result, latencies, window: { answers, seconds: start ? Number(last - start) / 1e9 : 0 } })),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode < 200 || statusCode > 299) return;
      latencies.push(responseTime);
      if (latencies.length === config.connections) start = process.hrtime.bigint();
      else if (latencies.length > config.connections) {
        answers++;
        last = process.hrtime.bigint();
      }
    });
  });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** What one target's measured runs gave: the 2xx latencies, and autocannon's counts summed. */
class Tally {
  private readonly latencies: number[] = [];
  private non2xx = 0;
  private errors = 0;
  private timeouts = 0;
  private seconds = 0;
  private readonly window: Window = { answers: 0, seconds: 0 };
  private readonly statusCodes: Record<string, number> = {};

  /** `steady`: reqPerSec over the runs' windows (see LoadResult.reqPerSec). */
  constructor(private readonly steady = false) {}

  add({ result, latencies, window }: { result: AutocannonResult; latencies: number[]; window: Window }): void {
    this.window.answers += window.answers;
    this.window.seconds += window.seconds;
    for (const latency of latencies) this.latencies.push(latency);
    this.non2xx += result.non2xx;
    this.errors += result.errors;
    this.timeouts += result.timeouts;
    this.seconds += result.duration;
    for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) this.statusCodes[code] = (this.statusCodes[code] ?? 0) + stat.count;
  }

  result(): LoadResult {
    const latencies = this.latencies.sort((a, b) => a - b);
    return {
      ok: latencies.length,
      non2xx: this.non2xx,
      errors: this.errors,
      timeouts: this.timeouts,
      statusCodes: this.statusCodes,
      seconds: this.seconds,
      reqPerSec: this.steady ? this.window.answers / this.window.seconds : latencies.length / this.seconds,
      latencyMs: {
        mean: latencies.reduce((a, b) => a + b, 0) / (latencies.length || 1),
        p50: percentile(latencies, 50),
        p90: percentile(latencies, 90),
        p99: percentile(latencies, 99),
        max: latencies.length ? latencies[latencies.length - 1] : NaN,
      },
    };
  }
}

async function single(config: LoadConfig): Promise<LoadResult> {
  if (config.warmupSeconds > 0) await run(config, config.warmupSeconds);
  // The parent reads the server's CPU time from here to the end (MEASURING_LINE, measure.ts).
  process.stdout.write(`${MEASURING_LINE}\n`);
  const tally = new Tally();
  tally.add(await run(config, config.durationSeconds));
  return tally.result();
}

async function inTurns(plan: TurnsPlan): Promise<LoadResult[]> {
  const lines = createInterface({ input: process.stdin });
  const go = lines[Symbol.asyncIterator]();
  const { durationSeconds, connections } = plan.targets[0];
  let slowest = Infinity;
  for (const target of plan.targets) {
    if (target.warmupSeconds <= 0) continue;
    const { result, latencies } = await run(target, target.warmupSeconds);
    slowest = Math.min(slowest, latencies.length / result.duration);
  }
  const fit = Math.floor((slowest * durationSeconds) / (ANSWERS_PER_CONNECTION_TURN * connections));
  const turns = Math.max(1, Math.min(plan.maxTurns, fit));
  // Too few answers for a steady part (createInvites of 1,000: a few per connection): over the whole run.
  const tallies = plan.targets.map(() => new Tally(fit >= 1));
  const indexes = plan.targets.map((_, i) => i);
  for (let turn = 0; turn < turns; turn++) {
    for (const i of turn % 2 === 0 ? indexes : [...indexes].reverse()) {
      process.stdout.write(`${TURN_LINE} ${i}\n`);
      if ((await go.next()).done) throw new Error('stdin closed before the measurement ended');
      tallies[i].add(await run(plan.targets[i], durationSeconds / turns));
      process.stdout.write(`${TURN_DONE_LINE} ${i}\n`);
    }
  }
  lines.close();
  return tallies.map((t) => ({ ...t.result(), turns }));
}

async function main(): Promise<void> {
  const input = JSON.parse(process.argv[2] ?? '') as LoadConfig | TurnsPlan;
  const out = 'targets' in input ? await inTurns(input) : await single(input);
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`load: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
