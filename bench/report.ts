/**
 * The report: medians of the rounds, the service against each other server (textbook Nest, bare Nest,
 * the floor), the targets, and what ran where (machine, commit), as markdown.
 */
import { execFileSync } from 'node:child_process';
import { cpus, release, totalmem } from 'node:os';
import { Options, ROOT, warmupSeconds } from './cli';
import type { Measurement, OpRuns, ScaleRuns } from './measure';
import { EARLIER_TARGET, GROWTH_TARGET, P99_TARGET, type Target } from './operations';
import { fmt, median, ms } from './numbers';
import { serves } from './processes';


interface Summary {
  rps: number;
  p50: number;
  p99: number;
  rss: number;
  /** µs of the server's CPU per response (Measurement.cpuUsPerRequest), median of the rounds. */
  cpu: number;
  failures: number;
}

function summarize(runs: Measurement[]): Summary {
  return {
    rps: median(runs.map((r) => r.reqPerSec)),
    p50: median(runs.map((r) => r.latencyMs.p50)),
    p99: median(runs.map((r) => r.latencyMs.p99)),
    rss: Math.max(...runs.map((r) => r.peakRssMb)),
    cpu: median(runs.map((r) => r.cpuUsPerRequest)),
    failures: runs.reduce((n, r) => n + r.non2xx + r.errors + r.timeouts, 0),
  };
}

/** The largest rise of per-row cost from a size to any larger one: 1 or less when it never rises. */
function growth(perRow: number[]): number {
  let worst = 0;
  for (let i = 0; i < perRow.length; i++) for (let j = i + 1; j < perRow.length; j++) worst = Math.max(worst, perRow[j] / perRow[i]);
  return worst;
}

const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
const align = (left: number, right: number) => `|${'---|'.repeat(left)}${'--:|'.repeat(right)}`;
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');

interface Named {
  name: string;
  label: string;
  phrase: string;
  /** The operation keys it serves; all when absent. */
  operations?: readonly string[];
  /** An earlier build of the service (--compare): judged by its own section, every figure within EARLIER_TARGET. */
  earlier?: boolean;
}

/** A measurement of the service alone (lists at scale, reports, exports...): its own section and targets. */
export interface ExtraSection {
  title: string;
  lines: string[];
  /** "what: met: ..." or "what: NOT met: ...", listed under the section's title in Targets. */
  verdicts: string[];
}

/**
 * The markdown report. The first server is the service; every ratio is the service's number over
 * another server's. Returns the target verdicts too.
 */
export function report(
  meta: Record<string, string>,
  servers: Named[],
  ops: OpRuns[],
  scaling: ScaleRuns[],
  o: Options,
  extras: ExtraSection[] = [],
): { md: string; verdicts: string[] } {
  const [subject, ...refs] = servers;
  const rounds = `median of ${o.rounds} round${o.rounds > 1 ? 's' : ''}`;
  const lines: string[] = [];
  const verdicts = new Map<string, string[]>(refs.map((r) => [r.label, []]));
  const add = (ref: Named, line: string) => verdicts.get(ref.label)!.push(line);
  const byName = (name: string) => servers.find((s) => s.name === name)!;
  const heads = (what: string) => servers.map((s) => `${what} ${s.label}`);
  const ratios = (what = '') => refs.map((r) => `${what}${subject.label} ÷ ${r.label}`);

  const phrases = refs.map((r) => r.phrase);
  lines.push(`# Benchmark: ${subject.phrase} against ${[phrases.slice(0, -1).join(', '), ...phrases.slice(-1)].filter(Boolean).join(' and ')}`, '');
  for (const [k, v] of Object.entries(meta)) lines.push(`- ${k}: ${v}`);
  lines.push('');

  const summaries = ops.map(({ op, runs }) => ({ op, s: Object.fromEntries(servers.map((x) => [x.name, summarize(runs[x.name])])) as Record<string, Summary> }));

  lines.push(`## Throughput (${o.connections} connections, ${o.duration} s per measurement after a ${warmupSeconds(o)} s warm-up, ${rounds})`, '');
  lines.push(row(['operation', ...heads('req/s'), ...ratios(), 'target']), `${align(1, servers.length + refs.length)}---|`);
  const target = (t: Target) => (t.minRatio !== undefined ? `≥ ${t.minRatio} × ${byName(t.against).label}` : `time ≤ ${t.maxTime} × ${byName(t.against).label}`);
  for (const { op, s } of summaries) {
    const failures = servers.filter((x) => s[x.name].failures > 0).map((x) => `${x.label} ${s[x.name].failures}`);
    const label = failures.length ? `${op.label} (failed requests: ${failures.join(', ')})` : op.label;
    const targets = op.targets.length ? op.targets.map(target).join(', ') : '–';
    lines.push(row([label, ...servers.map((x) => fmt(s[x.name].rps)), ...refs.map((r) => fmt(s[subject.name].rps / s[r.name].rps, 2)), targets]));
  }
  const partial = refs.filter((r) => r.operations);
  lines.push(
    '',
    `${subject.label} ÷ X = ${subject.phrase}'s req/s ÷ X's at the same concurrency: 1.00 = as fast as X, 0.5 = twice the time per request. ` +
      `target: what the service must reach (checked under Targets); "–": none yet, and no p99 target either.` +
      (partial.length ? ` "–" in ${partial.map((r) => r.phrase).join(', ')}'s columns: an operation it does not implement.` : ''),
    '',
    // How each operation's servers shared the machine (measure.ts's runLoadInTurns, load.ts's TurnsPlan).
    `The servers took the load in turns, the order reversed at every turn, req/s counted in each turn's steady part: ` +
      ops
        .map(({ op, runs }) => {
          const turns = runs[subject.name]?.[0]?.turns;
          return `${op.label} ${turns ? `${turns} turn${turns > 1 ? 's' : ''} of ${fmt(o.duration / turns, 1)} s` : 'one server after another'}`;
        })
        .join('; ') +
      '.',
    '',
  );

  lines.push(`## Latency (ms per request under the load above, ${rounds})`, '');
  lines.push(row(['operation', ...heads('p50'), ...heads('p99'), ...ratios('p99 ')]), align(1, 2 * servers.length + refs.length));
  for (const { op, s } of summaries) {
    lines.push(
      row([op.label, ...servers.map((x) => ms(s[x.name].p50)), ...servers.map((x) => ms(s[x.name].p99)), ...refs.map((r) => fmt(s[subject.name].p99 / s[r.name].p99, 2))]),
    );
  }
  lines.push('', 'Percentiles of every 2xx response time of the measurement.', '');

  lines.push(`## CPU per request (µs of the server process's time under the load above, ${rounds})`, '');
  lines.push(row(['operation', ...heads('µs'), ...ratios('time ')]), align(1, servers.length + refs.length));
  for (const { op, s } of summaries) {
    lines.push(row([op.label, ...servers.map((x) => fmt(s[x.name].cpu)), ...refs.map((r) => fmt(s[subject.name].cpu / s[r.name].cpu, 2))]));
  }
  lines.push(
    '',
    `User and system time of the server (all its threads, from /proc) over the measured run, divided by its responses. ` +
      `Not a target: a second reading of the same measurement, beside req/s, which this machine's load moves from minute to minute. ` +
      `${subject.label} ÷ X below 1.00: ${subject.phrase} spends less.`,
    '',
  );

  lines.push('## Memory (peak RSS in MB during each measurement)', '');
  lines.push(row(['operation', ...servers.map((x) => x.label)]), align(1, servers.length));
  for (const { op, s } of summaries) lines.push(row([op.label, ...servers.map((x) => fmt(s[x.name].rss))]));
  lines.push('', 'The highest VmRSS sampled every 100 ms while the operation ran, over all rounds; VmHWM (the peak over the whole run) is in the header.', '');

  // Targets on throughput and time, then on p99 latency.
  const p99Ref = byName(P99_TARGET.against);
  const p99Lines: string[] = [];
  for (const { op, s } of summaries) {
    const subj = s[subject.name];
    for (const t of op.targets) {
      const ref = byName(t.against);
      const other = s[ref.name];
      if (t.minRatio !== undefined) {
        const ratio = subj.rps / other.rps;
        add(ref, `${op.label}: ${verdict(ratio >= t.minRatio)}: ${subject.label} req/s ${fmt(ratio, 2)} × ${ref.phrase}'s (target ≥ ${t.minRatio})`);
      }
      if (t.maxTime !== undefined) {
        // Time per request at the same concurrency: the inverse of throughput.
        const time = other.rps / subj.rps;
        add(ref, `${op.label}: ${verdict(time <= t.maxTime)}: ${subject.label} time per request ${fmt(time, 2)} × ${ref.phrase}'s (target ≤ ${t.maxTime}; p50 ${fmt(subj.p50 / other.p50, 2)}×)`);
      }
    }
    if (op.targets.length === 0 || !serves(p99Ref, op.key)) continue;
    const p99 = subj.p99 / s[p99Ref.name].p99;
    p99Lines.push(`${op.label}: ${verdict(p99 <= P99_TARGET.maxRatio)}: ${subject.label} p99 ${ms(subj.p99)} ms, ${fmt(p99, 2)} × ${p99Ref.phrase}'s ${ms(s[p99Ref.name].p99)} ms (target ≤ ${fmt(P99_TARGET.maxRatio, 2)})`);
  }
  for (const line of p99Lines) add(p99Ref, line);

  lines.push(`## How cost grows (sequential requests on one connection, median time per request, ${rounds})`, '');
  lines.push(row(['operation', 'rows', ...heads('ms/request'), ...heads('µs/row'), ...ratios(), ...heads('marginal µs/row')]), align(1, 1 + 3 * servers.length + refs.length));
  const growthLines: string[] = [];
  const byKey = new Map<string, ScaleRuns[]>();
  for (const c of scaling) byKey.set(c.c.key, [...(byKey.get(c.c.key) ?? []), c]);
  for (const [key, cases] of byKey) {
    const perRow: Record<string, number[]> = Object.fromEntries(servers.map((x) => [x.name, []]));
    let prev: { rows: number; t: Record<string, number> } | undefined;
    for (const c of cases) {
      const t = Object.fromEntries(servers.map((x) => [x.name, median(c.runs[x.name])])) as Record<string, number>;
      for (const x of servers) perRow[x.name].push((t[x.name] * 1000) / c.c.rows);
      const marginal = (x: Named) => (prev ? ((t[x.name] - prev.t[x.name]) * 1000) / (c.c.rows - prev.rows) : NaN);
      lines.push(
        row([
          key,
          fmt(c.c.rows),
          ...servers.map((x) => ms(t[x.name])),
          ...servers.map((x) => fmt((t[x.name] * 1000) / c.c.rows, 1)),
          ...refs.map((r) => fmt(t[subject.name] / t[r.name], 2)),
          ...servers.map((x) => fmt(marginal(x), 1)),
        ]),
      );
      prev = { rows: c.c.rows, t };
    }
    const g = growth(perRow[subject.name]);
    const first = cases[0].c.rows;
    const last = cases[cases.length - 1].c.rows;
    const s = perRow[subject.name];
    growthLines.push(
      `${key}, per-row cost from ${fmt(first)} to ${fmt(last)} rows: ${verdict(g <= GROWTH_TARGET)}: µs/row rises at most ${fmt(g, 2)}× as rows grow ` +
        `(target ≤ ${GROWTH_TARGET}; ${refs
        .filter((r) => serves(r, key))
        .map((r) => `${r.label} ${fmt(growth(perRow[r.name]), 2)}×`)
        .join(', ')}; ` +
        `from ${fmt(first)} to ${fmt(last)} rows ${subject.phrase}'s µs/row goes ${fmt(s[0], 1)} → ${fmt(s[s.length - 1], 1)})`,
    );
  }
  lines.push(
    '',
    'µs/row = time per request ÷ rows: a fixed per-request cost makes it fall as rows grow, so cost that grows faster than the row count shows up as µs/row rising with size. ' +
      'The target is checked as the largest rise of µs/row from any size to a larger one (1.00 or less: no rise). ' +
      'Marginal µs/row = extra time per extra row from one size to the next: the per-row cost without the fixed part. ' +
      'The servers in turns of about 100 ms; createInvites\' rows removed after each case.',
    '',
  );

  // --compare (issue 30: "no figure worse than 5% below today's"): every figure measured on both, the service's against the earlier build's.
  for (const earlier of refs.filter((r) => r.earlier)) {
    const low = 1 - EARLIER_TARGET;
    const high = 1 + EARLIER_TARGET;
    const figures: { what: string; now: number; then: number; ok: boolean; why?: string }[] = [];
    // Failed requests make a figure incomparable (an error answers faster than the work), and so does none
    // answered (createInvites of 1,000 can take longer than a short --duration): named, and not met.
    const figure = (what: string, now: number, then: number, failures: number, within: boolean) => {
      const why = failures > 0 ? 'failed requests' : [now, then].every((x) => Number.isFinite(x) && x > 0) ? undefined : 'not measured';
      figures.push({ what, now, then, ok: !why && within, why });
    };
    for (const { op, s } of summaries.filter(({ op }) => serves(earlier, op.key))) {
      const [now, then] = [s[subject.name], s[earlier.name]];
      figure(`${op.label}, req/s`, now.rps, then.rps, now.failures + then.failures, now.rps >= low * then.rps);
      figure(`${op.label}, p99 ms`, now.p99, then.p99, now.failures + then.failures, now.p99 <= high * then.p99);
    }
    for (const { c, runs } of scaling.filter(({ c }) => serves(earlier, c.key))) {
      const [now, then] = [median(runs[subject.name]), median(runs[earlier.name])];
      figure(`${c.key} × ${fmt(c.rows)}, ms/request`, now, then, 0, now <= high * then);
    }
    lines.push(`## Against an earlier build: ${subject.phrase} against ${earlier.phrase} (${rounds})`, '');
    lines.push(row(['figure', subject.label, earlier.label, `${subject.label} ÷ ${earlier.label}`, `within ${fmt(EARLIER_TARGET * 100)}%`]), align(1, 4));
    for (const f of figures) {
      const value = (x: number) => (f.what.endsWith('req/s') ? fmt(x) : ms(x));
      lines.push(row([f.what, value(f.now), value(f.then), f.why ? '–' : fmt(f.now / f.then, 2), f.why ? `no (${f.why})` : f.ok ? 'yes' : 'NO']));
    }
    lines.push(
      '',
      `Every figure the two both measured, from the tables above: req/s (higher is better) at least ${fmt(low, 2)} × ${earlier.phrase}'s, ` +
        `p99 and the growth cases' time per request (lower is better) at most ${fmt(high, 2)} ×. ` +
        `A 5% bound is within the noise of one round on a busy machine: judge it on --rounds 3 or more with the load average low.`,
      '',
    );
    const worse = figures.filter((f) => !f.ok).map((f) => `${f.what} ${f.why ? `(${f.why})` : `${fmt(f.now / f.then, 2)}×`}`);
    add(
      earlier,
      `no figure more than ${fmt(EARLIER_TARGET * 100)}% worse than ${earlier.phrase}'s: ${verdict(worse.length === 0)}: ` +
        (worse.length ? `${worse.length} of ${figures.length} figures worse: ${worse.join('; ')}` : `all ${figures.length} figures within it`),
    );
  }

  for (const extra of extras) lines.push(`## ${extra.title}`, '', ...extra.lines, '');

  const rss = servers.map((x) => `${x.label} ${fmt(Math.max(...summaries.map(({ s }) => s[x.name].rss)))} MB`).join(', ');
  const all = [...[...verdicts.values()].flat(), ...growthLines, ...extras.flatMap((e) => e.verdicts)];
  lines.push('## Targets', '', `${all.filter((v) => !v.includes(': NOT met: ')).length} of ${all.length} met.`, '');
  // Only the servers the targets are set against; the others are in the tables for information.
  for (const ref of refs.filter((r) => verdicts.get(r.label)!.length > 0)) {
    lines.push(`### ${cap(subject.phrase)} against ${ref.phrase}`, '');
    for (const v of verdicts.get(ref.label)!) lines.push(`- ${v}`);
    lines.push('');
  }
  lines.push('### Growth', '');
  for (const v of growthLines) lines.push(`- ${v}`);
  lines.push('', `Peak RSS, no target (highest of any measurement): ${rss}.`, '');
  for (const extra of extras.filter((e) => e.verdicts.length > 0)) {
    lines.push(`### ${extra.title}`, '');
    for (const v of extra.verdicts) lines.push(`- ${v}`);
    lines.push('');
  }
  return { md: lines.join('\n'), verdicts: all };
}

/** The commit checked out (here, or in another checkout: --compare's), "(clean)" only when `git status --porcelain` prints nothing. */
export function describeCommit(dir = ROOT): string {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    const commit = git('rev-parse', '--short', 'HEAD');
    // bench/results holds the benchmark's own output (the previous report among it), not code measured.
    return git('status', '--porcelain', '--', ':/', ':(top,exclude)bench/results') === '' ? `${commit} (clean)` : `${commit} with uncommitted changes`;
  } catch {
    return 'unknown (not a git checkout)';
  }
}

export function describeMachine(): Record<string, string> {
  const cpu = cpus();
  return {
    cpus: `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown'}`,
    memory: `${fmt(totalmem() / 2 ** 30, 1)} GiB`,
    os: `Linux ${release()}`,
    node: process.version,
  };
}
