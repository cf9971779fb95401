/**
 * `npm run bench`: the service against textbook Nest (bench/baseline/textbook/, the yardstick of the
 * targets), bare Nest (bench/baseline/nest-bare.ts) and the floor (bench/baseline/server.ts) on
 * MySQL/MariaDB, in one run (see bench/README.md):
 *
 *  1. seeds a dataset through the service's own code in the seed's application context, or reuses
 *     the previous one (--skip-seed): dataset.ts;
 *  2. starts the four servers from dist/ and checks that they answer every operation alike:
 *     processes.ts, operations.ts;
 *  3. measures each operation under load and the growth cases sequentially, round by round:
 *     measure.ts;
 *  4. prints a markdown report and writes it to bench/results/latest.md (raw numbers: latest.json):
 *     report.ts.
 */
import '../src/config/load-env';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, relative } from 'node:path';
import { createPool, type RowDataPacket } from 'mysql2/promise';
import { LOAD_MAIN, Options, RESULTS, ROOT, UsageError, log, parseArgs } from './cli';
import { Dataset, ROOM_QUESTIONS, ROOM_START_TURNS, cleanWrites, databaseName, prepareDataset, resetRoom } from './dataset';
import { BIG_LIST_INVITES, BigListRun, bigListSection, measureBigList } from './biglist';
import { InsightsRun, insightsSection, measureInsights } from './insights';
import { QualityRun, measureQuality, qualitySection } from './insights-quality';
import { ObservabilityRun, measureObservability, observabilitySection } from './observability';
import { PairedRun, measurePairedRounds, pairedSection } from './paired';
import { MachineSpeed } from './machine-speed';
import { OpRuns, estimateSeconds, measureAll } from './measure';
import { checkParity } from './operations';
import { Server, ServerSpec, highWaterMb, startServer, stopAll, stopChild, stopChildrenOnExit, waitQuiet } from './processes';
import { fmt } from './numbers';
import { type ExtraSection, describeCommit, describeMachine, report } from './report';

/** The servers compared, the service first: every ratio in the report is the service's over another's. */
function serverSpecs(o: Options): ServerSpec[] {
  const env = { ...process.env, NODE_ENV: 'production' };
  const service: ServerSpec = {
    name: 'service',
    label: 'service',
    phrase: 'the service',
    script: join(ROOT, 'dist', 'src', 'main.js'),
    env: {
      ...env,
      LOG_LEVEL: 'info',
      MIGRATIONS_RUN: 'false',
      // The rate limits (per token; the room's per address and per link) stay on, their cost is part
      // of the service, but out of reach.
      RATE_LIMIT_MAX: '1000000',
      ROOM_RATE_LIMIT_MAX: '1000000',
      ROOM_LINK_RATE_LIMIT_MAX: '1000000',
      RATE_LIMIT_WINDOW_SECONDS: '1',
    },
    description:
      'node dist/src/main.js, NODE_ENV=production, LOG_LEVEL=info (stdout to bench/results/service.log), ' +
      'rate limits on but out of reach: RATE_LIMIT_MAX, ROOM_RATE_LIMIT_MAX and ROOM_LINK_RATE_LIMIT_MAX 1000000 per 1 s',
  };
  return [
    service,
    {
      name: 'textbook',
      label: 'textbook Nest',
      phrase: 'textbook Nest',
      script: join(ROOT, 'dist', 'bench', 'baseline', 'textbook', 'main.js'),
      env,
      // The reads and products/addOne; not createInvites or room/reply.
      operations: ['products/getOne', 'invites/getOne', 'products/getList', 'invites/getList', 'products/addOne'],
      description:
        'node dist/bench/baseline/textbook/main.js: the design card as a typical team writes it with stock NestJS pieces ' +
        '(TypeORM repositories, a global guard with a 30 s token cache, ValidationPipe, a {result} interceptor, an exception filter); ' +
        'reads and products/addOne only',
    },
    {
      name: 'nest-bare',
      label: 'bare Nest',
      phrase: 'bare Nest',
      script: join(ROOT, 'dist', 'bench', 'baseline', 'nest-bare.js'),
      env,
      description: 'node dist/bench/baseline/nest-bare.js: NestJS on Express with no guard, filter, interceptor, pipe or middleware but the JSON body parser; a mysql2 pool, the same queries, token check and envelope',
    },
    {
      name: 'floor',
      label: 'floor',
      phrase: 'the floor',
      script: join(ROOT, 'dist', 'bench', 'baseline', 'server.js'),
      env,
      description: 'node dist/bench/baseline/server.js: node:http and a mysql2 pool, the same queries, token check and envelope',
    },
    ...(o.compare ? [earlierSpec(service, o.compare)] : []),
  ];
}

/**
 * --compare: an earlier build of the service, started as the service is (same environment, so the same
 * database, log level and rate limits) but from its own checkout, where its node_modules are. Last, so
 * that the order of the others is as without it.
 */
function earlierSpec(service: ServerSpec, dir: string): ServerSpec {
  const script = join(dir, 'dist', 'src', 'main.js');
  if (!existsSync(script)) throw new UsageError(`--compare ${dir}: ${script} is missing: build that checkout first (npm ci && npm run build there).`);
  const commit = describeCommit(dir);
  if (commit.startsWith('unknown')) throw new UsageError(`--compare ${dir}: not a git checkout; the report names the build by its commit.`);
  const sha = commit.split(' ')[0];
  return {
    ...service,
    name: `service-${sha}`,
    label: `service at ${sha}`,
    phrase: `the service at ${sha}`,
    script,
    cwd: dir,
    earlier: true,
    description: `node dist/src/main.js in ${dir}, ${commit}, with the service's environment; checked on status codes only (it lacks the fields added since)`,
  };
}

/** What room/reply's numbers correspond to: how it loads its invites, and how long their transcripts grew. */
function roomLine(ops: OpRuns[], d: Dataset, connections: number): string {
  const states = ops.flatMap((r) => Object.values(r.runs).flat()).flatMap((m) => (m.room ? [m.room] : []));
  if (states.length === 0) return 'not measured';
  const means = states.map((s) => s.meanTurns);
  const completed = states.reduce((n, s) => n + s.completed, 0);
  return (
    (connections <= d.roomLinks.length
      ? `each connection answers its own ${fmt(Math.ceil(d.roomLinks.length / connections))} links or fewer in turn, at most one request per link in flight`
      : `${connections} connections share ${d.roomLinks.length} links`) +
    ` (${fmt(d.roomLinks.length)} started invites), no token; ` +
    `transcripts reset to ${ROOM_START_TURNS} turns before each measurement and ${fmt(Math.min(...means), 0)}–${fmt(Math.max(...means), 0)} turns on average at its end ` +
    `(longest ${Math.max(...states.map((s) => s.maxTurns))})${completed ? `; ${completed} invites completed during the measurements, their later answers refused` : ''}`
  );
}

/** --only quality: the analysis on public data and at scale, in this process and its worker thread; no database, no server. */
async function qualityAlone(): Promise<void> {
  const commit = describeCommit();
  mkdirSync(RESULTS, { recursive: true });
  const loadAtStart = loadavg()[0];
  const section = qualitySection(await measureQuality());
  writeSectionAlone('quality', 'Insights quality section alone', section, { commit, 'load average (1 min)': loadLine(loadAtStart), ...describeMachine() });
}

const loadLine = (atStart: number) => `${atStart.toFixed(2)} when the run started, ${loadavg()[0].toFixed(2)} at the end; ${cpus().length} cores`;

/** --only: one section's report, written to bench/results/<only>.md (untracked) and printed; latest.md is left as it is. */
function writeSectionAlone(only: NonNullable<Options['only']>, title: string, section: ExtraSection, meta: Record<string, string>): void {
  const md = [`# ${title} (npm run bench -- --only ${only})`, '', ...Object.entries(meta).map(([k, v]) => `- ${k}: ${v}`), '', `## ${section.title}`, '', ...section.lines, '', '## Targets', '', ...section.verdicts.map((v) => `- ${v}`), ''].join('\n');
  const file = join(RESULTS, `${only}.md`);
  writeFileSync(file, md);
  process.stdout.write(`\n${md}\nWritten to ${relative(ROOT, file)}.\n`);
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  if (o.only === 'quality') return qualityAlone();
  const url = process.env.DATABASE_URL?.trim();
  if (!url || !/^(mysql|mariadb):\/\//i.test(url)) {
    throw new UsageError(
      'npm run bench needs MySQL or MariaDB: set DATABASE_URL=mysql://user:password@host:3306/database (or mariadb://...), ' +
        'ideally a database of its own. The embedded SQLite database is not benchmarked.',
    );
  }
  // --only: the section's servers alone: the service, and for paired the earlier build beside it.
  const specs = o.only === 'paired' ? serverSpecs(o).filter((s, i) => i === 0 || s.earlier) : o.only ? serverSpecs(o).slice(0, 1) : serverSpecs(o);
  for (const file of [...specs.map((s) => s.script), LOAD_MAIN]) {
    if (!existsSync(file)) throw new UsageError(`${relative(ROOT, file)} is missing: run \`npm run build\` first (npm run bench does).`);
  }
  stopChildrenOnExit();
  // Before the run writes anything: the code measured is the code of this commit only when nothing differs from it.
  const commit = describeCommit();
  mkdirSync(RESULTS, { recursive: true });
  const started = Date.now();
  const loadAtStart = loadavg()[0];
  if (loadAtStart > 0.5) {
    log(`Note: load average ${loadAtStart.toFixed(2)} before the benchmark started: other processes are busy; absolute numbers will be lower and noisier (ratios hold better).`);
  }

  // 1. Dataset and token, through the service's own code.
  const pool = createPool({ uri: url.replace(/^mariadb:/i, 'mysql:'), connectionLimit: 2, timezone: 'Z' });
  let dataset: Dataset;
  let token: string;
  let tokenID: string;
  try {
    ({ dataset, token, tokenID } = await prepareDataset(o, url, pool));
  } catch (error) {
    await pool.end();
    throw error;
  }

  const servers: Server[] = [];
  const meta: Record<string, string> = {};
  let results: Awaited<ReturnType<typeof measureAll>>;
  const bigList: BigListRun[] = [];
  let insights: InsightsRun | undefined;
  let quality: QualityRun | undefined;
  let observability: ObservabilityRun | undefined;
  let paired: PairedRun | undefined;
  const speed = new MachineSpeed();
  try {
    await cleanWrites(pool, dataset);
    await resetRoom(pool, dataset);
    const [[version]] = await pool.query<RowDataPacket[]>('SELECT VERSION() AS v');
    const [[totals]] = await pool.query<RowDataPacket[]>(
      'SELECT (SELECT COUNT(*) FROM products) AS products, (SELECT COUNT(*) FROM invites) AS invites, (SELECT COUNT(*) FROM profiles) AS profiles, (SELECT COUNT(*) FROM interviews) AS interviews',
    );

    // 2. The servers, and a check that they answer alike.
    for (const spec of specs) {
      log(`Starting ${spec.phrase}: ${spec.description}...`);
      servers.push(await startServer(spec));
    }
    if (o.only === 'insights') {
      insights = await measureInsights(servers[0], { interviewID: dataset.studyInterviewID, productID: dataset.productID }, token, o.rounds);
      writeSectionAlone('insights', 'Insights section alone', insightsSection(insights), { commit, 'load average (1 min)': loadLine(loadAtStart) });
      return;
    }
    if (o.only === 'paired') {
      await checkParity(servers, dataset, token);
      await cleanWrites(pool, dataset);
      const [service, earlier] = servers;
      await Promise.all(servers.map((s) => stopChild(s.child)));
      paired = await measurePairedRounds([service, earlier], dataset, token, o, pool);
      writeSectionAlone('paired', 'Paired section alone', pairedSection(paired), {
        commit,
        [service.label]: service.description,
        [earlier.label]: earlier.description,
        options: `--duration ${o.duration} --rounds ${o.rounds}`,
        'load average (1 min)': loadLine(loadAtStart),
        ...describeMachine(),
      });
      return;
    }
    await checkParity(servers, dataset, token);
    await cleanWrites(pool, dataset);
    await resetRoom(pool, dataset);
    const earlier = servers.filter((s) => s.earlier).map((s) => `, ${s.phrase} on status and rows only`);
    log(`All ${servers.length} servers answer alike every operation they serve${earlier.join('')}.`);

    // 3. Measurements.
    log(`Measuring: about ${Math.ceil(estimateSeconds(o, servers) / 60)} min.`);
    speed.sample('the load measurements');
    results = await measureAll(servers, dataset, token, o, pool);
    const service = servers[0];
    // --compare: each operation once more, one request at a time, the two builds in turns, on new
    // processes each round (paired.ts).
    const earlierServer = servers.find((s) => s.earlier);
    if (earlierServer) {
      speed.sample('the paired section');
      paired = await measurePairedRounds([service, earlierServer], dataset, token, o, pool);
    }
    speed.sample('the lists at scale');
    for (let round = 1; round <= o.rounds; round++) {
      const run = await measureBigList(service, dataset.bigListInterviewID, token);
      bigList.push(run);
      log(`[${round}/${o.rounds}] invites/getList of ${BIG_LIST_INVITES} invites, unpaged: first byte ${run.ttfbMs.toFixed(0)} ms, all ${run.totalMs.toFixed(0)} ms, RSS +${run.rssGrowthMb.toFixed(1)} MB`);
    }
    speed.sample('the insights');
    insights = await measureInsights(service, { interviewID: dataset.studyInterviewID, productID: dataset.productID }, token, o.rounds);
    // In this process and its analysis worker, the service idle.
    await waitQuiet(service);
    speed.sample('the insights quality');
    quality = await measureQuality();
    speed.sample('the observability overhead');
    observability = await measureObservability(specs[0], dataset, token, o);
    speed.sample('the end');

    Object.assign(
      meta,
      {
        date: new Date().toISOString(),
        database: `${version.v} (${databaseName(url)})`,
        dataset:
          `${fmt(Number(totals.products))} products (organizations of 100, 1,000 and 10,000), ${fmt(Number(totals.interviews))} interviews, ` +
          `${fmt(Number(totals.invites))} invites (one interview with 1,000 completed 20-turn transcripts, one of ${ROOM_QUESTIONS} questions with ` +
          `${fmt(dataset.roomLinks.length)} started), ${fmt(Number(totals.profiles))} profiles; seeded ${dataset.createdAt}`,
        'room/reply': roomLine(results.ops, dataset, o.connections),
        options: `--duration ${o.duration} --connections ${o.connections} --rounds ${o.rounds}${o.skipSeed ? ' --skip-seed' : ''}`,
      },
      Object.fromEntries(servers.map((s) => [s.label, s.description])),
      { 'load generator': `autocannon 8 in its own process (dist/bench/load.js), ${o.connections} connections` },
      describeMachine(),
      {
        commit,
        'load average (1 min)': `${loadAtStart.toFixed(2)} when the run started (other processes), ${loadavg()[0].toFixed(2)} at the end (the benchmark keeps about 2 busy); ${cpus().length} cores`,
        'machine speed': speed.describe(),
      },
    );
    for (const s of servers) meta[`${s.label} VmHWM (peak RSS over the whole run)`] = `${fmt(highWaterMb(s.child.pid!))} MB`;
  } finally {
    await Promise.all(servers.map((s) => stopChild(s.child)));
    await cleanWrites(pool, dataset).catch(() => undefined);
    await resetRoom(pool, dataset).catch(() => undefined);
    // The run's token is of no use afterwards.
    await pool.query('UPDATE api_tokens SET revoked_at = ? WHERE id = ?', [new Date(), tokenID]).catch(() => undefined);
    await pool.end();
  }

  // 4. Report.
  const logSizes = servers.map((s) => `${s.name}.log ${fmt(statSync(s.logFile).size / 2 ** 20, 1)} MB`).join(', ');
  meta['total time'] = `${fmt((Date.now() - started) / 1000)} s (logs: ${logSizes})`;
  const named = servers.map(({ name, label, phrase, operations, earlier }) => ({ name, label, phrase, operations, earlier }));
  const extras = [...(paired ? [pairedSection(paired)] : []), bigListSection(bigList), insightsSection(insights!), qualitySection(quality!), observabilitySection(observability!)];
  const { md } = report(meta, named, results.ops, results.scaling, o, extras);
  writeFileSync(join(RESULTS, 'latest.md'), md);
  const raw = {
    meta,
    options: o,
    servers: named,
    operations: results.ops.map((r) => ({ key: r.op.key, runs: r.runs })),
    scaling: results.scaling.map((r) => ({ key: r.c.key, rows: r.c.rows, medianMs: r.runs })),
    bigList,
    insights,
    quality,
    observability,
    paired: paired && { earlier: paired.earlier.name, seconds: paired.seconds, operations: paired.ops.map((p) => ({ key: p.op.key, rounds: p.rounds })) },
  };
  writeFileSync(join(RESULTS, 'latest.json'), `${JSON.stringify(raw, null, 2)}\n`);
  process.stdout.write(`\n${md}\nWritten to ${relative(ROOT, join(RESULTS, 'latest.md'))} (raw numbers: latest.json).\n`);
}

main().then(
  () => process.exit(0),
  async (error: unknown) => {
    await stopAll();
    if (error instanceof UsageError) {
      log(error.message);
      process.exit(2);
    }
    log(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
