/**
 * --compare, paired: each operation one request at a time on the service and on the earlier build, the
 * two taken in turns of about 100 ms (measure.ts, timeInterleaved), for the round's seconds of each,
 * every round on a new pair of processes (measurePairedRounds).
 *
 * Under load, a figure of one build and the same figure of the other are measured seconds or minutes
 * apart, and on this machine (2 cores shared with the database and the load generator) the same build's
 * req/s moved by 20-40% from one 5 s measurement to the next: finer than 5% is beyond three rounds of
 * it. Requests in turns see the same moments of the machine; two copies of one build measured so
 * differed by 1-4%. What it does not measure: anything that only shows under concurrency (queueing,
 * the pool, p99), which the load measurements keep.
 */
import type { Pool } from 'mysql2/promise';
import { Options, log } from './cli';
import { Dataset, settleAfterCleanup } from './dataset';
import { timeInterleaved } from './measure';
import { EARLIER_TARGET, OPS, Op, headersFor } from './operations';
import { Server, ServerSpec, assertAlive, serves, startServer, stopChild } from './processes';
import { fmt, median, ms } from './numbers';

/** One operation's medians of its rounds, the service's and the earlier build's. */
export interface PairedOp {
  op: Op;
  /** Per round: [service, earlier] time per request (ms) and CPU per request (µs). */
  rounds: { ms: [number, number]; cpuUs: [number, number]; n: [number, number] }[];
}

export interface PairedRun {
  earlier: Server;
  seconds: number;
  ops: PairedOp[];
}

/**
 * The operations a request of which can be repeated as it is: not room/reply, whose requests move each
 * link's interview on (and are spread over many links).
 */
function pairable(op: Op): boolean {
  return !op.paths && !op.resets;
}

/** The operations paired against `earlier`: the pairable ones it serves. */
const pairedOps = (earlier: Server) => OPS.filter((op) => pairable(op) && serves(earlier, op.key));

/** One request of `op`, as the paired section sends it. */
const requestOf = (op: Op, d: Dataset, token: string) => ({ method: op.method, path: op.path(d), headers: headersFor(token, op), body: op.body?.(d) });

/**
 * The paired rounds, each on a new pair of processes, warmed on every operation first. Two processes of
 * one build do not end up alike: one kept invites/getList of 1,000 at 1.16x the other's time in all
 * three rounds of an A/A run (1.159-1.171), where the same pair was within 2% on the other operations.
 * Measured on one pair, that is a figure of the pair, not of the build; a new pair per round makes it
 * one round of several, and the median the build's.
 */
export async function measurePairedRounds(specs: readonly [ServerSpec, ServerSpec], d: Dataset, token: string, o: Options, pool: Pool): Promise<PairedRun> {
  let run: PairedRun | undefined;
  for (let round = 1; round <= o.rounds; round++) {
    const pair: Server[] = [];
    try {
      for (const spec of specs) pair.push(await startServer({ ...spec, name: `${spec.name}-paired` }));
      const [service, earlier] = pair;
      // What a new process pays once (loading, compiling its hot paths) is not a figure of either build.
      for (const op of pairedOps(earlier)) {
        await timeInterleaved(pair, requestOf(op, d, token), 1);
        if (op.write) await settleAfterCleanup(pool, d);
      }
      run = await measurePaired(service, earlier, d, token, o, pool, run);
    } finally {
      await Promise.all(pair.map((s) => stopChild(s.child)));
    }
  }
  return run!;
}

/** A round's paired measurement of every pairable operation; the writes' rows are removed after each. */
export async function measurePaired(service: Server, earlier: Server, d: Dataset, token: string, o: Options, pool: Pool, into?: PairedRun): Promise<PairedRun> {
  const seconds = o.duration;
  const run = into ?? { earlier, seconds, ops: pairedOps(earlier).map((op) => ({ op, rounds: [] })) };
  const round = run.ops[0]?.rounds.length ?? 0;
  for (const paired of run.ops) {
    const { op } = paired;
    const pair = round % 2 === 0 ? [service, earlier] : [earlier, service];
    const timed = await timeInterleaved(pair, requestOf(op, d, token), seconds, 10);
    for (const s of pair) assertAlive(s);
    const [now, then] = [timed.get(service)!, timed.get(earlier)!];
    paired.rounds.push({ ms: [now.medianMs, then.medianMs], cpuUs: [now.cpuUsPerRequest, then.cpuUsPerRequest], n: [now.n, then.n] });
    log(
      `[${round + 1}/${o.rounds}] ${`${op.label}, paired`.padEnd(44)} ${ms(now.medianMs)} ms, ${fmt(now.cpuUsPerRequest)} µs CPU (${now.n}) ` +
        `against ${ms(then.medianMs)} ms, ${fmt(then.cpuUsPerRequest)} µs CPU (${then.n}): ${fmt(now.medianMs / then.medianMs, 3)}×`,
    );
    if (op.write) await settleAfterCleanup(pool, d);
  }
  return run;
}

export function pairedSection(run: PairedRun): { title: string; lines: string[]; verdicts: string[] } {
  const high = 1 + EARLIER_TARGET;
  const rows = run.ops.map(({ op, rounds }) => {
    const side = (i: 0 | 1) => ({ ms: median(rounds.map((r) => r.ms[i])), cpuUs: median(rounds.map((r) => r.cpuUs[i])), n: rounds.reduce((t, r) => t + r.n[i], 0) });
    const ratios = rounds.map((r) => r.ms[0] / r.ms[1]);
    return { op, now: side(0), then: side(1), ratio: median(ratios), spread: [Math.min(...ratios), Math.max(...ratios)] };
  });
  const label = run.earlier.label;
  const worse = rows.filter((r) => !(r.ratio <= high));
  const rounds = run.ops[0]?.rounds.length ?? 0;
  return {
    title: `Against an earlier build, paired: the service against ${run.earlier.phrase}, one request at a time in turns`,
    lines: [
      `Each operation one request at a time, the two servers taken in turns of about 100 ms (the order reversed at every turn) for ${run.seconds} s each, ` +
        `${rounds} round${rounds === 1 ? '' : 's'}, each on a new pair of processes warmed on every operation for 1 s; the time per request is the median of all a round's requests, the figure the median of the rounds. ` +
        'Both see the same moments of the machine, which measurements under load, minutes apart, do not; what only shows under concurrency (queueing, p99) those keep. ' +
        'room/reply is left out: its requests move their interviews on.',
      '',
      `| operation | ms/request service | ms/request ${label} | service ÷ ${label} (rounds: lowest–highest) | CPU µs/request service | CPU µs/request ${label} | CPU service ÷ ${label} | requests service / ${label} | within ${fmt(EARLIER_TARGET * 100)}% |`,
      '|---|--:|--:|--:|--:|--:|--:|--:|--:|',
      ...rows.map(
        (r) =>
          `| ${r.op.label} | ${ms(r.now.ms)} | ${ms(r.then.ms)} | ${fmt(r.ratio, 3)} (${fmt(r.spread[0], 3)}–${fmt(r.spread[1], 3)}) | ${fmt(r.now.cpuUs)} | ${fmt(r.then.cpuUs)} | ` +
          `${fmt(r.now.cpuUs / r.then.cpuUs, 2)} | ${fmt(r.now.n)} / ${fmt(r.then.n)} | ${r.ratio <= high ? 'yes' : 'NO'} |`,
      ),
      '',
      'CPU per request: the server\'s user and system time (all its threads, from /proc, in 10 ms ticks) from the first turn to the end of the last, divided by its requests.',
    ],
    verdicts: [
      `paired, no operation's time per request more than ${fmt(EARLIER_TARGET * 100)}% above ${run.earlier.phrase}'s: ${worse.length === 0 ? 'met' : 'NOT met'}: ` +
        (worse.length ? worse.map((r) => `${r.op.label} ${fmt(r.ratio, 3)}×`).join('; ') : rows.map((r) => `${r.op.label} ${fmt(r.ratio, 3)}×`).join('; ')),
    ],
  };
}
