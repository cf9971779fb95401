/** The benchmark's command line: where things are, the options, and how it talks to the terminal. */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export const USAGE = `Usage: DATABASE_URL=mariadb://user:password@host:3306/database npm run bench -- [options]

Measures the service against textbook Nest (the same API written the way a typical NestJS team
writes it: TypeORM repositories, global guard, ValidationPipe, interceptor, filter; the targets'
yardstick), bare Nest (a minimal NestJS app doing the same queries) and the floor (node:http doing
the same queries); see bench/README.md.

  --duration N     seconds per measurement (default 10); each is preceded by a short warm-up
  --connections N  concurrent connections of the load generator (default 16)
  --rounds N       measurements per operation and server; the report shows medians (default 1)
  --skip-seed      reuse the dataset of a previous run (bench/results/dataset.json)
  --compare DIR    one more server: an earlier build of the service, DIR a built checkout of it
                   (its dist/src/main.js, run in DIR with its own node_modules; e.g. a git worktree
                   of an older commit after \`npm ci && npm run build\` there), labelled by its commit
                   ("service at <sha>"), measured in the same rounds on every operation and growth
                   case; checked on status codes only (the service has since gained fields), and the
                   report judges the service against it: no figure more than 5% worse
  --only insights  the insights section alone (export, report, latency during a report): the
                   service only, written to bench/results/insights.md; latest.md is left as it is
  --only quality   the insights quality section alone (banking77, yelp, a report over 100,000
                   answers and a question of 20,000 through the analysis worker): no database, no
                   server; written to bench/results/quality.md
  --only paired    with --compare: the paired section alone (each operation one request at a time,
                   the two builds in turns), the other servers not started: a change judged against
                   an earlier build in minutes; written to bench/results/paired.md

Use a database of its own: the run adds about 11,100 products, 1,512 invites and 2,200 profiles.`;

function findRoot(start: string): string {
  let dir = start;
  // package-lock.json, not package.json: the build has a copy of package.json (the service reads its version from it).
  while (!existsSync(join(dir, 'package-lock.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package-lock.json above ${start}`);
    dir = up;
  }
  return dir;
}

/** The checkout the benchmark runs from (it runs from dist/bench/, two levels down). */
export const ROOT = findRoot(__dirname);
export const RESULTS = join(ROOT, 'bench', 'results');
export const DATASET_FILE = join(RESULTS, 'dataset.json');
export const LOAD_MAIN = join(ROOT, 'dist', 'bench', 'load.js');
/** What the load generator writes on stdout when its warm-up is over and the measured run starts; its result follows, on the last line. */
export const MEASURING_LINE = 'measuring';
/** What the load generator writes before and after a server's turn when it measures servers in turns (load.ts's TurnsPlan). */
export const TURN_LINE = 'turn';
export const TURN_DONE_LINE = 'turned';

export interface Options {
  duration: number;
  connections: number;
  rounds: number;
  skipSeed: boolean;
  /**
   * One section alone instead of the whole run: insights (issue 19's figures), quality (issue 29's) or,
   * with --compare, paired (issue 30's: the one comparison of two builds finer than 5% here).
   */
  only?: 'insights' | 'quality' | 'paired';
  /** --compare: a built checkout of an earlier commit of the service, measured beside this one (issue 30). */
  compare?: string;
}

/** The unrecorded warm-up before each measurement under load: 1 to 2 s. */
export function warmupSeconds(o: Options): number {
  return Math.min(2, Math.max(1, Math.round(o.duration / 5)));
}

/** A mistake of the caller: printed without a stack trace, exit code 2. */
export class UsageError extends Error {}

export function parseArgs(argv: string[]): Options {
  const o: Options = { duration: 10, connections: 16, rounds: 1, skipSeed: false };
  const limits: Record<string, [keyof Options, number, number]> = {
    '--duration': ['duration', 1, 600],
    '--connections': ['connections', 1, 1000],
    '--rounds': ['rounds', 1, 20],
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') throw new UsageError(USAGE);
    if (arg === '--skip-seed') {
      o.skipSeed = true;
      continue;
    }
    if (arg === '--only' || arg.startsWith('--only=')) {
      const value = arg === '--only' ? argv[++i] : arg.slice('--only='.length);
      if (value !== 'insights' && value !== 'quality' && value !== 'paired') throw new UsageError(`--only takes "insights", "quality" or "paired"\n\n${USAGE}`);
      o.only = value;
      continue;
    }
    if (arg === '--compare' || arg.startsWith('--compare=')) {
      const value = arg === '--compare' ? argv[++i] : arg.slice('--compare='.length);
      if (!value || value.startsWith('--')) throw new UsageError(`--compare takes the directory of a built checkout\n\n${USAGE}`);
      o.compare = resolve(value);
      continue;
    }
    const [flag, inline] = arg.split('=', 2);
    const limit = Object.hasOwn(limits, flag) ? limits[flag] : undefined;
    if (!limit) throw new UsageError(`unknown option "${arg}"\n\n${USAGE}`);
    const value = inline ?? argv[++i];
    if (value === undefined || !/^\d+$/.test(value) || Number(value) < limit[1] || Number(value) > limit[2]) {
      throw new UsageError(`${flag} needs a whole number from ${limit[1]} to ${limit[2]}\n\n${USAGE}`);
    }
    (o as unknown as Record<string, number>)[limit[0]] = Number(value);
  }
  // Insights and quality are the service's alone: there is nothing to compare the earlier build on. The
  // paired section is nothing but that comparison.
  if (o.only === 'paired' && !o.compare) throw new UsageError(`--only paired compares the service with an earlier build: give --compare DIR\n\n${USAGE}`);
  if (o.only && o.only !== 'paired' && o.compare) throw new UsageError(`--compare measures the whole run, not --only ${o.only}\n\n${USAGE}`);
  return o;
}

/** Progress goes to stderr; stdout carries only the report. */
export function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
