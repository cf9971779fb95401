/**
 * The measurements: each operation under load with autocannon in its own process (dist/bench/load.js)
 * while the server's RSS is sampled, and sequential requests at growing sizes; round by round, every
 * server in turn, the order alternating between rounds.
 */
import { spawn } from 'node:child_process';
import type { Pool } from 'mysql2/promise';
import { LOAD_MAIN, MEASURING_LINE, Options, ROOT, TURN_DONE_LINE, TURN_LINE, log, sleep, warmupSeconds } from './cli';
import { Dataset, PURGE_PAUSE_MS, RoomState, resetRoom, settleAfterCleanup } from './dataset';
import type { LoadConfig, LoadResult, TurnsPlan } from './load';
import { OPS, Op, SCALING, ScaleCase, headersFor } from './operations';
import { RssSampler, Server, assertAlive, cpuTicks, http, serves, track, waitQuiet } from './processes';
import { fmt, median, ms } from './numbers';

export interface Measurement extends LoadResult {
  peakRssMb: number;
  /**
   * The server's CPU time (user and system, all its threads, from /proc) over the measured run, per
   * response, in µs: the work a request costs, read beside req/s, which other load on the machine
   * moves too.
   */
  cpuUsPerRequest: number;
  /** room/reply: the transcripts at the end of the measurement (all reset to 2 turns before it). */
  room?: RoomState;
}

/** One operation's measurements, per server name. */
export interface OpRuns {
  op: Op;
  runs: Record<string, Measurement[]>;
}

/** One growth case's median times per request (ms), per server name, one per round. */
export interface ScaleRuns {
  c: ScaleCase;
  runs: Record<string, number[]>;
}

/** Seconds of sequential requests per growth case and server. */
function scaleSeconds(o: Options): number {
  return Math.max(1, Math.round(o.duration / 5));
}

/** About how long the measurements take, in seconds. */
export function estimateSeconds(o: Options, servers: Pick<Server, 'operations' | 'earlier'>[]): number {
  const pause = PURGE_PAUSE_MS / 1000;
  const count = (key: string) => servers.filter((s) => serves(s, key)).length;
  // In turns (runLoadInTurns), each turn after waitQuiet's 0.25 s at least; room/reply one server after another.
  const turns = Math.max(1, Math.round(o.duration / LOAD_TURN_SECONDS));
  const load = OPS.reduce(
    (t, op) =>
      t +
      (op.resets
        ? (count(op.key) + 1) * (1 + pause) + count(op.key) * (o.duration + warmupSeconds(o))
        : count(op.key) * (o.duration + warmupSeconds(o) + 0.3 * turns) + 1 + (op.write ? pause : 0)),
    0,
  );
  const scale = SCALING.reduce((t, c) => t + count(c.key) * scaleSeconds(o) + 1 + (c.write ? pause : 0), 0);
  // The observability overhead (observability.ts): products/getOne on four servers started for it, each
  // warmed once by an unmeasured run before the rounds.
  const getOne = o.duration + warmupSeconds(o) + 1;
  const observability = 4 * getOne + 15;
  // --compare: the paired measurement (paired.ts), six operations, two of them writes.
  const paired = servers.some((s) => s.earlier) ? 6 * (2 * o.duration + 1) + 2 * pause : 0;
  return o.rounds * (load + scale + observability + paired) + 4 * getOne + 20;
}

function loadConfig(server: Server, op: Op, d: Dataset, token: string, o: Options): LoadConfig {
  return {
    url: `http://127.0.0.1:${server.port}${op.path(d)}`,
    method: op.method,
    headers: headersFor(token, op),
    body: op.body?.(d),
    uniqueBodies: op.uniqueBodies,
    paths: op.paths?.(d),
    connections: o.connections,
    durationSeconds: o.duration,
    warmupSeconds: warmupSeconds(o),
  };
}

/** A turn of runLoadInTurns lasts a second at least: `--duration 5` gives each server five turns at most. */
const LOAD_TURN_SECONDS = 1;

/**
 * One operation under load on several servers, in turns (load.ts's TurnsPlan): each server's
 * `--duration` seconds are cut into turns of LOAD_TURN_SECONDS or more, the servers' turns alternating. Before
 * each turn the previous server is let settle (waitQuiet: the collection of its turn's garbage would
 * otherwise fall on the next one); its CPU time is counted over its own turns.
 */
export function runLoadInTurns(servers: Server[], targets: LoadConfig[], what: string): Promise<Measurement[]> {
  const { durationSeconds, warmupSeconds: warmup } = targets[0];
  const plan: TurnsPlan = { targets, maxTurns: Math.max(1, Math.round(durationSeconds / LOAD_TURN_SECONDS)) };
  return new Promise((resolve, reject) => {
    const child = track(spawn(process.execPath, [LOAD_MAIN, JSON.stringify(plan)], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] }));
    const rss = servers.map((s) => new RssSampler(s.child.pid!));
    const ticks = servers.map(() => 0);
    let turnStart = NaN;
    let previous: Server | undefined;
    let pending = '';
    let resultLine = '';
    let stderr = '';
    // Lines are handled one after another: a turn starts only once the previous server has settled.
    let handling = Promise.resolve();
    const handle = async (line: string): Promise<void> => {
      const [word, index] = line.split(' ');
      const server = servers[Number(index)];
      if (word === TURN_LINE) {
        if (previous) await waitQuiet(previous);
        turnStart = cpuTicks(server.child.pid!);
        child.stdin!.write('go\n');
      } else if (word === TURN_DONE_LINE) {
        ticks[Number(index)] += cpuTicks(server.child.pid!) - turnStart;
        previous = server;
      }
    };
    child.stdout!.on('data', (c: Buffer) => {
      pending += c.toString();
      let newline: number;
      while ((newline = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        // The last line is the result, a JSON array; the others say whose turn starts or ends.
        if (line.startsWith('[')) resultLine = line;
        else
          handling = handling
            .then(() => handle(line))
            .catch((error: unknown) => {
              child.kill('SIGKILL');
              reject(error instanceof Error ? error : new Error(String(error)));
            });
      }
    });
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const limit = setTimeout(() => child.kill('SIGKILL'), servers.length * (durationSeconds + warmup + 120) * 1000);
    // 'close', not 'exit': the result line may still be in the pipe at exit.
    child.once('close', (code, signal) => {
      clearTimeout(limit);
      const peaks = rss.map((r) => r.stop());
      void handling.then(() => {
        try {
          for (const server of servers) assertAlive(server);
          if (code !== 0) throw new Error(`the load generator failed (${code ?? signal}) on ${what} in turns: ${stderr.trim()}`);
          const results = JSON.parse(resultLine) as LoadResult[];
          resolve(
            results.map((result, i) => {
              const responses = result.ok + result.non2xx;
              return { ...result, peakRssMb: peaks[i], cpuUsPerRequest: responses > 0 ? (ticks[i] * 10_000) / responses : NaN };
            }),
          );
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
    });
  });
}

/** One run of the load generator in its own process against `server`, its RSS sampled meanwhile. */
export function runLoad(server: Server, config: LoadConfig, what: string): Promise<Measurement> {
  return new Promise((resolve, reject) => {
    const child = track(spawn(process.execPath, [LOAD_MAIN, JSON.stringify(config)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] }));
    const rss = new RssSampler(server.child.pid!);
    let stdout = '';
    let stderr = '';
    let ticksAtStart: number | undefined;
    child.stdout!.on('data', (c: Buffer) => {
      stdout += c.toString();
      if (ticksAtStart === undefined && stdout.startsWith(`${MEASURING_LINE}\n`)) ticksAtStart = cpuTicks(server.child.pid!);
    });
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const limit = setTimeout(() => child.kill('SIGKILL'), (config.durationSeconds + config.warmupSeconds + 120) * 1000);
    child.once('exit', (code, signal) => {
      clearTimeout(limit);
      const peakRssMb = rss.stop();
      const ticks = cpuTicks(server.child.pid!) - (ticksAtStart ?? NaN);
      try {
        assertAlive(server);
      } catch (error) {
        return reject(error as Error);
      }
      if (code !== 0) return reject(new Error(`the load generator failed (${code ?? signal}) on ${what} against ${server.phrase}: ${stderr.trim()}`));
      try {
        const result = JSON.parse(stdout.trimEnd().split('\n').at(-1)!) as LoadResult;
        const responses = result.ok + result.non2xx;
        resolve({ ...result, peakRssMb, cpuUsPerRequest: responses > 0 ? (ticks * 10_000) / responses : NaN });
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}

/**
 * A server's turn in timeInterleaved: requests until TURN_MS have passed and MIN_PER_TURN were made. The
 * first request of a turn may meet the work the previous server still does after its last answer (the
 * collection of a 10,000-row list's garbage): with five to a turn, the median is that of the rest.
 */
const TURN_MS = 100;
const MIN_PER_TURN = 5;

/** One request, as timeInterleaved sends it to every server. */
export interface SequentialRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** What timeInterleaved measured of one server. */
export interface InTurns {
  /** The median time per request, in ms. */
  medianMs: number;
  n: number;
  /** The server's CPU time (all its threads, from /proc) from the first turn to the end of the last, per request, in µs. */
  cpuUsPerRequest: number;
}

/**
 * Sequential requests to several servers taken in turns of about TURN_MS each (MIN_PER_TURN requests at
 * least), the order reversed at every turn, for about `seconds` per server and `minRequests` at least.
 * One server after another for `seconds` apiece gave each its own stretch of the machine, and a second
 * is as long as a burst of other work (the database's purge, another process's collection): the growth
 * cases of one run differed by 10-20% between builds whose interleaved requests differed by 2%.
 */
export async function timeInterleaved(servers: Server[], request: SequentialRequest, seconds: number, minRequests = 5): Promise<Map<Server, InTurns>> {
  const { method, path, headers, body } = request;
  const times = new Map(servers.map((s) => [s, [] as number[]]));
  for (const server of servers) for (let i = 0; i < 2; i++) await http(server.port, method, path, headers, body); // warm-up
  // CPU over the whole measurement: what a server does between its turns (collecting a turn's garbage) is its requests' too.
  const ticksAtStart = new Map(servers.map((s) => [s, cpuTicks(s.child.pid!)]));
  const end = Date.now() + seconds * 1000 * servers.length;
  const short = () => [...times.values()].some((t) => t.length < minRequests);
  for (let turn = 0; (Date.now() < end || short()) && [...times.values()].some((t) => t.length < 10_000); turn++) {
    for (const server of turn % 2 === 0 ? servers : [...servers].reverse()) {
      const mine = times.get(server)!;
      const turnEnd = Date.now() + TURN_MS;
      let made = 0;
      do {
        const t0 = process.hrtime.bigint();
        const reply = await http(server.port, method, path, headers, body);
        const elapsed = Number(process.hrtime.bigint() - t0) / 1e6;
        if (reply.status < 200 || reply.status > 299) throw new Error(`${method} ${path.split('?')[0]} on ${server.phrase}: HTTP ${reply.status} ${reply.body.slice(0, 200)}`);
        mine.push(elapsed);
        made++;
      } while ((Date.now() < turnEnd || made < MIN_PER_TURN) && mine.length < 10_000);
    }
  }
  const ticks = (server: Server) => cpuTicks(server.child.pid!) - ticksAtStart.get(server)!;
  return new Map([...times].map(([server, t]) => [server, { medianMs: median(t), n: t.length, cpuUsPerRequest: (ticks(server) * 10_000) / t.length }]));
}

/**
 * Round by round, each operation against every server that serves it, then each growth case; a
 * server's runs of an operation it does not serve stay empty. The order of the
 * servers alternates by round: the rows a write measurement leaves are deleted after it and InnoDB
 * purges them in the background, which would otherwise always slow whichever server comes next.
 */
export async function measureAll(servers: Server[], d: Dataset, token: string, o: Options, pool: Pool): Promise<{ ops: OpRuns[]; scaling: ScaleRuns[] }> {
  const empty = <T>() => Object.fromEntries(servers.map((s) => [s.name, [] as T[]]));
  const ops: OpRuns[] = OPS.map((op) => ({ op, runs: empty<Measurement>() }));
  const scaling: ScaleRuns[] = SCALING.map((c) => ({ c, runs: empty<number>() }));
  const width = Math.max(...servers.map((s) => s.label.length));
  for (let round = 1; round <= o.rounds; round++) {
    const order = round % 2 === 1 ? servers : [...servers].reverse();
    for (const run of ops) {
      const serving = order.filter((s) => serves(s, run.op.key));
      // room/reply moves its interviews on: each server from the same 2-turn transcripts, one after
      // another. The rest with the servers in turns (runLoadInTurns).
      if (run.op.resets) {
        // Every server after the first starts right after the reset, which has just read the room's
        // invites into MariaDB's buffer pool; the first would start after other operations have pushed
        // them out (the dataset is 6 times the default pool) and measured a quarter slower, whichever
        // server it was. So the first starts after a reset too (its transcripts are already at 2 turns).
        await resetRoom(pool, d);
        await sleep(PURGE_PAUSE_MS);
      }
      for (const group of run.op.resets ? serving.map((s) => [s]) : [serving]) {
        const results = run.op.resets ? [await runLoad(group[0], loadConfig(group[0], run.op, d, token, o), run.op.key)] : await runLoadInTurns(group, group.map((s) => loadConfig(s, run.op, d, token, o)), run.op.key);
        for (const [j, server] of group.entries()) {
          const m = results[j];
          assertAlive(server);
          await waitQuiet(server);
          run.runs[server.name].push(m);
          const failed = m.non2xx + m.errors + m.timeouts;
          log(
            `[${round}/${o.rounds}] ${run.op.label.padEnd(36)} ${server.label.padEnd(width)} ${fmt(m.reqPerSec).padStart(6)} req/s  p50 ${ms(m.latencyMs.p50).padStart(6)} ms  ` +
              `p99 ${ms(m.latencyMs.p99).padStart(6)} ms  RSS ${fmt(m.peakRssMb)} MB  CPU ${fmt(m.cpuUsPerRequest)} µs/request${m.turns ? `  (${m.turns} turns)` : ''}${failed ? `  FAILED ${failed} (${JSON.stringify(m.statusCodes)})` : ''}`,
          );
        }
        if (run.op.write) await settleAfterCleanup(pool, d);
        if (run.op.resets) {
          const m = results[0];
          m.room = await resetRoom(pool, d);
          log(`        transcripts at the end: ${fmt(m.room.meanTurns, 1)} turns on average, at most ${m.room.maxTurns}; reset to 2`);
          // An invite completed: it refused every later answer, so the measurement is not of replies alone.
          if (m.room.completed > 0) log(`        WARNING: ${m.room.completed} invites completed during the measurement: use a shorter --duration`);
          await sleep(PURGE_PAUSE_MS);
        }
      }
    }
    for (const run of scaling) {
      const serving = order.filter((s) => serves(s, run.c.key));
      const logged = (server: Server, t: { medianMs: number; n: number }, how: string) =>
        log(`[${round}/${o.rounds}] ${`${run.c.key} × ${run.c.rows}`.padEnd(36)} ${server.label.padEnd(width)} ${ms(t.medianMs).padStart(6)} ms/request (${t.n} ${how})`);
      // The servers in turns (timeInterleaved), writes too: each turn's rows stay until the cleanup after
      // the case, so every server writes beside the same growing table.
      const timed = await timeInterleaved(serving, { method: 'GET', path: run.c.path(d), headers: headersFor(token, { method: 'GET' }) }, scaleSeconds(o));
      for (const server of serving) {
        assertAlive(server);
        run.runs[server.name].push(timed.get(server)!.medianMs);
        logged(server, timed.get(server)!, 'sequential, in turns');
      }
      if (run.c.write) await settleAfterCleanup(pool, d);
    }
  }
  return { ops, scaling };
}
