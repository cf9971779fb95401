/**
 * `npm run bench`: the service against a hand-written baseline (bench/baseline/server.ts) on
 * MySQL/MariaDB, in one run:
 *
 *  1. seeds a dataset through the service's own code (SeedService, InvitesService.insertInvites,
 *     InviteLifecycleService) in a Nest application context, or reuses the previous one
 *     (--skip-seed, bench/results/dataset.json);
 *  2. starts the built service (node dist/src/main.js, production settings and logging) and the
 *     baseline (node dist/bench/baseline/server.js), checks that both answer every operation alike;
 *  3. drives each operation with autocannon in a separate process (dist/bench/load.js), same
 *     connections and duration, the two in alternating order round by round, sampling each server's
 *     RSS from /proc; then times sequential requests at growing sizes (how cost grows per row);
 *  4. prints a markdown report and writes it to bench/results/latest.md (raw numbers: latest.json).
 *
 * Rows the write operations add (products/addOne, createInvites) are deleted after each measurement,
 * so every measurement sees the same dataset.
 */
import '../src/config/load-env';
import { NestFactory } from '@nestjs/core';
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { AddressInfo, createServer } from 'node:net';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { createPool, type Pool, type RowDataPacket } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { AppModule } from '../src/app.module';
import { createLogger } from '../src/common/logger';
import { TokensService, hashToken } from '../src/auth/tokens.service';
import { InviteLifecycleService } from '../src/invites/invite-lifecycle.service';
import { InvitesService } from '../src/invites/invites.service';
import { DemoRandom, demo } from '../src/seed/demo-data';
import { SeedProgress, SeedService } from '../src/seed/seed.service';
import type { LoadConfig, LoadResult } from './load';

const USAGE = `Usage: DATABASE_URL=mariadb://user:password@host:3306/database npm run bench -- [options]

  --duration N     seconds per measurement (default 10); each is preceded by a short warm-up
  --connections N  concurrent connections of the load generator (default 16)
  --rounds N       measurements per operation and server; the report shows medians (default 1)
  --skip-seed      reuse the dataset of a previous run (bench/results/dataset.json)

Use a database of its own: the run adds about 11,100 products, 1,000 invites and 1,200 profiles.`;

// ---------------------------------------------------------------------------------------------
// Paths and options

function findRoot(start: string): string {
  let dir = start;
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${start}`);
    dir = up;
  }
  return dir;
}

const ROOT = findRoot(__dirname);
const RESULTS = join(ROOT, 'bench', 'results');
const SERVICE_MAIN = join(ROOT, 'dist', 'src', 'main.js');
const BASELINE_MAIN = join(ROOT, 'dist', 'bench', 'baseline', 'server.js');
const LOAD_MAIN = join(ROOT, 'dist', 'bench', 'load.js');
const DATASET_FILE = join(RESULTS, 'dataset.json');

interface Options {
  duration: number;
  connections: number;
  rounds: number;
  skipSeed: boolean;
}

class UsageError extends Error {}

function parseArgs(argv: string[]): Options {
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
    const [flag, inline] = arg.split('=', 2);
    const limit = limits[flag];
    if (!limit) throw new UsageError(`unknown option "${arg}"\n\n${USAGE}`);
    const value = inline ?? argv[++i];
    if (value === undefined || !/^\d+$/.test(value) || Number(value) < limit[1] || Number(value) > limit[2]) {
      throw new UsageError(`${flag} needs a whole number from ${limit[1]} to ${limit[2]}\n\n${USAGE}`);
    }
    (o as unknown as Record<string, number>)[limit[0]] = Number(value);
  }
  return o;
}

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

// ---------------------------------------------------------------------------------------------
// Child processes: every one is registered, and all are ended on exit, error and Ctrl-C.

const children = new Set<ChildProcess>();

function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

async function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

async function stopAll(): Promise<void> {
  await Promise.all([...children].map((c) => stopChild(c)));
}

process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    log(`\n${signal}: stopping the servers and the load generator`);
    void stopAll().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------------------
// Dataset

interface Dataset {
  version: 1;
  createdAt: string;
  database: string;
  /** Organization of exactly N products, for getList at 100, 1,000 and 10,000 rows. */
  orgs: Record<'100' | '1000' | '10000', string>;
  /** products/getOne target (in the 10,000 organization). */
  productID: string;
  /** The interview with 1,000 invites, each completed with a 20-turn transcript. */
  readInterviewID: string;
  /** invites/getOne target: one of those invites. */
  linkID: string;
  /** createInvites target: its invites are deleted after every measurement. */
  writeInterviewID: string;
  /** Organization of the products addOne creates: deleted after every measurement. */
  writeOrgID: string;
  counts: { products: number; invites: number; profiles: number; interviews: number };
}

function databaseName(url: string): string {
  return decodeURIComponent(new URL(url.replace(/^mariadb:/i, 'mysql:')).pathname.replace(/^\//, ''));
}

function quietProgress(label: string): SeedProgress {
  let total = 0;
  let what = '';
  let started = 0;
  return {
    start(n, w) {
      total = n;
      what = w;
      started = Date.now();
    },
    tick() {},
    stop() {
      if (total > 0) log(`  ${label}: ${total.toLocaleString('en-US')} ${what} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    },
  };
}

async function seed(app: Awaited<ReturnType<typeof NestFactory.createApplicationContext>>, url: string): Promise<Dataset> {
  const seeder = app.get(SeedService);
  const dataSource = app.get(DataSource);
  const stamp = `bench${Date.now().toString(36)}`;
  const base = { interviews: 0, invites: 0, turns: 0, profiles: 0, seed: 42 };
  const counts = { products: 0, invites: 0, profiles: 0, interviews: 0 };
  const add = (r: { products: number; invites: number; profiles: number; interviews: number }) => {
    counts.products += r.products;
    counts.invites += r.invites;
    counts.profiles += r.profiles;
    counts.interviews += r.interviews;
  };

  // Three organizations of exactly 100, 1,000 and 10,000 products, with profiles and interviews on the smaller ones.
  const p100 = await seeder.run({ ...base, orgs: 1, users: 5, products: 100, interviews: 1, profiles: 2, seed: 1, prefix: `${stamp}-p100` }, quietProgress('org of 100'));
  add(p100);
  const p1k = await seeder.run({ ...base, orgs: 1, users: 20, products: 1000, profiles: 1, seed: 2, prefix: `${stamp}-p1k` }, quietProgress('org of 1,000'));
  add(p1k);
  const p10k = await seeder.run({ ...base, orgs: 1, users: 50, products: 10_000, seed: 3, prefix: `${stamp}-p10k` }, quietProgress('org of 10,000'));
  add(p10k);
  // Two products with one interview each: the first gets 1,000 invites with transcripts, the second takes createInvites.
  const inv = await seeder.run({ ...base, orgs: 1, users: 1, products: 2, interviews: 1, profiles: 2, seed: 4, prefix: `${stamp}-inv` }, quietProgress('interviews'));
  add(inv);

  const [readInterview, writeInterview] = (await dataSource.query(
    'SELECT i.id, i.product_id FROM interviews i INNER JOIN products p ON p.id = i.product_id WHERE p.org_id = ? ORDER BY i.created_at, i.id',
    [inv.orgIDs[0]],
  )) as { id: string; product_id: string }[];

  const started = Date.now();
  const invites = app.get(InvitesService);
  const lifecycle = app.get(InviteLifecycleService);
  const urls = await invites.insertInvites(readInterview.id, readInterview.product_id, inv.orgIDs[0], 1000);
  const links = urls.map((u) => u.slice(u.lastIndexOf('/') + 1));
  const r = new DemoRandom(5);
  const work = links.map((linkID) => ({ linkID, person: demo.person(r), turns: demo.conversation(r, 20) }));
  let next = 0;
  const worker = async () => {
    while (next < work.length) {
      const w = work[next++];
      await lifecycle.start(w.linkID, { email: w.person.email, name: `${w.person.first} ${w.person.last}`, occupation: w.person.occupation });
      await lifecycle.appendTurns(w.linkID, w.turns);
      await lifecycle.complete(w.linkID);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  counts.invites += links.length;
  log(`  1,000 invites started, given 20 turns each and completed in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  // SeedService issues two tokens per run; the benchmark uses its own, so these are revoked at once.
  const seedTokens = [p100, p1k, p10k, inv].flatMap((r) => [r.adminToken, r.orgToken]).map(hashToken);
  await dataSource.query('UPDATE api_tokens SET revoked_at = ? WHERE token_hash IN (?)', [new Date(), seedTokens]);

  const [middle] = (await dataSource.query('SELECT id FROM products WHERE org_id = ? ORDER BY created_at, id LIMIT 1 OFFSET 5000', [p10k.orgIDs[0]])) as { id: string }[];
  return {
    version: 1,
    createdAt: new Date().toISOString(),
    database: databaseName(url),
    orgs: { '100': p100.orgIDs[0], '1000': p1k.orgIDs[0], '10000': p10k.orgIDs[0] },
    productID: middle.id,
    readInterviewID: readInterview.id,
    linkID: links[0],
    writeInterviewID: writeInterview.id,
    writeOrgID: `${stamp}-writes`,
    counts,
  };
}

async function checkDataset(pool: Pool, d: Dataset, url: string): Promise<void> {
  if (d.version !== 1) throw new Error(`${relative(ROOT, DATASET_FILE)} is from another version of the harness: run without --skip-seed`);
  if (d.database !== databaseName(url)) throw new Error(`${relative(ROOT, DATASET_FILE)} describes database "${d.database}", not "${databaseName(url)}": run without --skip-seed`);
  for (const [size, orgID] of Object.entries(d.orgs)) {
    const [[row]] = await pool.query<RowDataPacket[]>('SELECT COUNT(*) AS n FROM products WHERE org_id = ?', [orgID]);
    if (Number(row.n) !== Number(size)) throw new Error(`organization ${orgID} has ${row.n} products, expected ${size}: run without --skip-seed`);
  }
  const [[inv]] = await pool.query<RowDataPacket[]>('SELECT COUNT(*) AS n FROM invites WHERE interview_id = ?', [d.readInterviewID]);
  if (Number(inv.n) !== 1000) throw new Error(`interview ${d.readInterviewID} has ${inv.n} invites, expected 1000: run without --skip-seed`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Until no other connection runs a statement on the database (seen three times in a row), at most 60 s. */
async function waitDbIdle(pool: Pool, database: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  let quiet = 0;
  while (quiet < 3 && Date.now() < deadline) {
    const [[row]] = await pool.query<RowDataPacket[]>(
      "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE DB = ? AND COMMAND NOT IN ('Sleep', 'Daemon') AND ID <> CONNECTION_ID()",
      [database],
    );
    quiet = Number(row.n) === 0 ? quiet + 1 : 0;
    if (quiet < 3) await sleep(100);
  }
}

/**
 * Deletes what the write operations added, so every measurement sees the same dataset. Waits for
 * the writes still running when the load generator stopped, and retries a DELETE that deadlocks with one.
 */
/** Deletes what a write measurement added, then gives InnoDB's purge a moment before the next one. */
async function settleAfterCleanup(pool: Parameters<typeof cleanWrites>[0], dataset: Parameters<typeof cleanWrites>[1]): Promise<void> {
  await cleanWrites(pool, dataset);
  await new Promise((resolve) => setTimeout(resolve, 3000));
}

async function cleanWrites(pool: Pool, d: Dataset): Promise<void> {
  await waitDbIdle(pool, d.database);
  for (let attempt = 1; ; attempt++) {
    try {
      await pool.query('DELETE FROM invites WHERE interview_id = ?', [d.writeInterviewID]);
      await pool.query('DELETE FROM products WHERE org_id = ?', [d.writeOrgID]);
      return;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt >= 10 || (code !== 'ER_LOCK_DEADLOCK' && code !== 'ER_LOCK_WAIT_TIMEOUT')) throw error;
      await sleep(500);
      await waitDbIdle(pool, d.database);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Servers

interface Server {
  name: 'service' | 'baseline';
  port: number;
  child: ChildProcess;
  logFile: string;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

interface HttpReply {
  status: number;
  body: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function http(port: number, method: string, path: string, headers: Record<string, string> = {}, body?: string, timeoutMs = 60_000): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${path} timed out`)));
    req.on('error', reject);
    req.end(body);
  });
}

function tail(file: string, lines = 20): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

async function startServer(name: Server['name'], script: string, env: NodeJS.ProcessEnv): Promise<Server> {
  const port = await freePort();
  const logFile = join(RESULTS, `${name}.log`);
  const fd = openSync(logFile, 'w');
  const child = track(spawn(process.execPath, [script], { cwd: ROOT, env: { ...env, PORT: String(port) }, stdio: ['ignore', fd, fd] }));
  closeSync(fd);
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the ${name} exited while starting (${child.exitCode ?? child.signalCode}); ${relative(ROOT, logFile)}:\n${tail(logFile)}`);
    }
    const ok = await http(port, 'GET', '/health', {}, undefined, 2000).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return { name, port, child, logFile };
    if (Date.now() > deadline) throw new Error(`the ${name} did not answer /health within 60 s; ${relative(ROOT, logFile)}:\n${tail(logFile)}`);
    await sleep(200);
  }
}

function cpuTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime + stime, in clock ticks
  } catch {
    return NaN;
  }
}

/**
 * Until the server has finished what the load generator left in flight (under 4% of a core over
 * 250 ms), at most 60 s, so that one measurement does not spill into the next.
 */
async function waitQuiet(server: Server): Promise<void> {
  const deadline = Date.now() + 60_000;
  let before = cpuTicks(server.child.pid!);
  while (Date.now() < deadline) {
    await sleep(250);
    const now = cpuTicks(server.child.pid!);
    if (!(now - before > 1)) return;
    before = now;
  }
}

function assertAlive(server: Server): void {
  const { exitCode, signalCode } = server.child;
  if (exitCode !== null || signalCode !== null) {
    throw new Error(`the ${server.name} exited during the run (${exitCode ?? signalCode}); ${relative(ROOT, server.logFile)}:\n${tail(server.logFile)}`);
  }
}

/** Highest VmRSS seen while sampling, in MB: the peak of one measurement. */
class RssSampler {
  private peakKb = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly pid: number) {
    this.sample();
    this.timer = setInterval(() => this.sample(), 100);
  }

  private sample(): void {
    try {
      const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${this.pid}/status`, 'utf8'));
      if (m) this.peakKb = Math.max(this.peakKb, Number(m[1]));
    } catch {
      // the process is gone: the run will report why
    }
  }

  stop(): number {
    clearInterval(this.timer);
    this.sample();
    return this.peakKb / 1024;
  }
}

function highWaterMb(pid: number): number {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

// ---------------------------------------------------------------------------------------------
// Operations

interface Op {
  key: string;
  label: string;
  method: 'GET' | 'POST';
  path: (d: Dataset) => string;
  body?: (d: Dataset) => string;
  write?: boolean;
  /** Service req/s at least `minRatio` of the baseline's, or service time at most `maxTime` times the baseline's. */
  target?: { minRatio?: number; maxTime?: number };
  check?: (result: unknown) => string | undefined;
}

const q = encodeURIComponent;
const isArrayOf = (n: number) => (r: unknown) => (Array.isArray(r) && r.length === n ? undefined : `expected ${n} items, got ${Array.isArray(r) ? r.length : typeof r}`);

const OPS: Op[] = [
  { key: 'products/getOne', label: 'products/getOne', method: 'GET', path: (d) => `/v1/products/getOne?productID=${q(d.productID)}`, target: { minRatio: 0.8 } },
  {
    key: 'invites/getOne',
    label: 'invites/getOne (20-turn transcript)',
    method: 'GET',
    path: (d) => `/v1/invites/getOne?linkID=${q(d.linkID)}`,
    target: { minRatio: 0.8 },
    check: (r) => ((r as { conversation?: unknown[] }).conversation?.length === 20 ? undefined : 'expected a 20-turn transcript'),
  },
  {
    key: 'products/getList',
    label: 'products/getList (1,000 rows)',
    method: 'GET',
    path: (d) => `/v1/products/getList?orgID=${q(d.orgs['1000'])}`,
    target: { minRatio: 0.7 },
    check: isArrayOf(1000),
  },
  {
    key: 'invites/getList',
    label: 'invites/getList (1,000 invites)',
    method: 'GET',
    path: (d) => `/v1/invites/getList?interviewID=${q(d.readInterviewID)}`,
    target: { minRatio: 0.7 },
    check: isArrayOf(1000),
  },
  {
    key: 'products/addOne',
    label: 'products/addOne',
    method: 'POST',
    path: () => '/v1/products/addOne',
    body: (d) =>
      JSON.stringify({
        name: 'Bench Notes',
        desc: 'A product written by the benchmark; deleted after each measurement.',
        orgID: d.writeOrgID,
        url: 'https://products.example/bench',
        imageLink: 'https://images.example/bench.png',
      }),
    write: true,
    check: (r) => (typeof (r as { productID?: unknown }).productID === 'string' ? undefined : 'expected {productID}'),
  },
  {
    key: 'invites/createInvites',
    label: 'createInvites (count=1000)',
    method: 'GET',
    path: (d) => `/v1/invites/createInvites?interviewID=${q(d.writeInterviewID)}&count=1000`,
    write: true,
    target: { maxTime: 1.5 },
    check: isArrayOf(1000),
  },
];

interface ScaleCase {
  key: string;
  rows: number;
  path: (d: Dataset) => string;
  write?: boolean;
}

const SCALING: ScaleCase[] = [
  ...(['100', '1000', '10000'] as const).map((n) => ({ key: 'products/getList', rows: Number(n), path: (d: Dataset) => `/v1/products/getList?orgID=${q(d.orgs[n])}` })),
  ...[10, 100, 1000].map((n) => ({
    key: 'invites/createInvites',
    rows: n,
    path: (d: Dataset) => `/v1/invites/createInvites?interviewID=${q(d.writeInterviewID)}&count=${n}`,
    write: true,
  })),
];

function headersFor(token: string, op: { method: string }): Record<string, string> {
  return { authorization: `Bearer ${token}`, ...(op.method === 'POST' ? { 'content-type': 'application/json' } : {}) };
}

/** Both servers must answer every operation with the same status and, for reads, the same body. */
async function checkParity(servers: Server[], d: Dataset, token: string): Promise<void> {
  for (const op of OPS) {
    const replies = await Promise.all(servers.map((s) => http(s.port, op.method, op.path(d), headersFor(token, op), op.body?.(d))));
    for (const [i, reply] of replies.entries()) {
      if (reply.status < 200 || reply.status >= 300) throw new Error(`${op.key} on the ${servers[i].name}: HTTP ${reply.status} ${reply.body.slice(0, 300)}`);
      const problem = op.check?.((JSON.parse(reply.body) as { result: unknown }).result);
      if (problem) throw new Error(`${op.key} on the ${servers[i].name}: ${problem}`);
    }
    if (replies[0].status !== replies[1].status) throw new Error(`${op.key}: service answered ${replies[0].status}, baseline ${replies[1].status}`);
    if (!op.write && replies[0].body !== replies[1].body) {
      const at = [...replies[0].body].findIndex((c, i) => c !== replies[1].body[i]);
      throw new Error(
        `${op.key}: the bodies differ at character ${at}:\n  service:  …${replies[0].body.slice(Math.max(0, at - 60), at + 60)}\n  baseline: …${replies[1].body.slice(Math.max(0, at - 60), at + 60)}`,
      );
    }
  }
  for (const c of SCALING.filter((c) => !c.write)) {
    for (const s of servers) {
      const reply = await http(s.port, 'GET', c.path(d), headersFor(token, { method: 'GET' }));
      const problem = reply.status === 200 ? isArrayOf(c.rows)((JSON.parse(reply.body) as { result: unknown }).result) : `HTTP ${reply.status}`;
      if (problem) throw new Error(`${c.key} (${c.rows} rows) on the ${s.name}: ${problem}`);
    }
  }
}

interface Measurement extends LoadResult {
  peakRssMb: number;
}

function drive(server: Server, op: Op, d: Dataset, token: string, o: Options): Promise<Measurement> {
  const config: LoadConfig = {
    url: `http://127.0.0.1:${server.port}${op.path(d)}`,
    method: op.method,
    headers: headersFor(token, op),
    body: op.body?.(d),
    connections: o.connections,
    durationSeconds: o.duration,
    warmupSeconds: warmupSeconds(o),
  };
  return new Promise((resolve, reject) => {
    const child = track(spawn(process.execPath, [LOAD_MAIN, JSON.stringify(config)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] }));
    const rss = new RssSampler(server.child.pid!);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const limit = setTimeout(() => child.kill('SIGKILL'), (config.durationSeconds + config.warmupSeconds + 120) * 1000);
    child.once('exit', (code, signal) => {
      clearTimeout(limit);
      const peakRssMb = rss.stop();
      try {
        assertAlive(server);
      } catch (error) {
        return reject(error as Error);
      }
      if (code !== 0) return reject(new Error(`the load generator failed (${code ?? signal}) on ${op.key} against the ${server.name}: ${stderr.trim()}`));
      try {
        resolve({ ...(JSON.parse(stdout) as LoadResult), peakRssMb });
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}

function warmupSeconds(o: Options): number {
  return Math.min(2, Math.max(1, Math.round(o.duration / 5)));
}

/** Sequential requests on one keep-alive connection for about `seconds`: the median time per request, in ms. */
async function timeSequential(server: Server, path: string, token: string, seconds: number): Promise<{ medianMs: number; n: number }> {
  const headers = headersFor(token, { method: 'GET' });
  for (let i = 0; i < 2; i++) await http(server.port, 'GET', path, headers); // warm-up
  const times: number[] = [];
  const end = Date.now() + seconds * 1000;
  while ((Date.now() < end || times.length < 5) && times.length < 10_000) {
    const t0 = process.hrtime.bigint();
    const reply = await http(server.port, 'GET', path, headers);
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (reply.status !== 200) throw new Error(`GET ${path.split('?')[0]} on the ${server.name}: HTTP ${reply.status} ${reply.body.slice(0, 200)}`);
    times.push(ms);
  }
  return { medianMs: median(times), n: times.length };
}

// ---------------------------------------------------------------------------------------------
// Report

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const fmt = (x: number, digits = 0) => (Number.isFinite(x) ? x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '–');
const ms = (x: number) => fmt(x, x < 10 ? 2 : x < 100 ? 1 : 0);

interface OpSummary {
  op: Op;
  service: Measurement[];
  baseline: Measurement[];
}

interface ScaleSummary {
  c: ScaleCase;
  service: number[];
  baseline: number[];
}

function summarize(runs: Measurement[]) {
  return {
    rps: median(runs.map((r) => r.reqPerSec)),
    p50: median(runs.map((r) => r.latencyMs.p50)),
    p99: median(runs.map((r) => r.latencyMs.p99)),
    rss: Math.max(...runs.map((r) => r.peakRssMb)),
    failures: runs.reduce((n, r) => n + r.non2xx + r.errors + r.timeouts, 0),
  };
}

function report(meta: Record<string, string>, ops: OpSummary[], scaling: ScaleSummary[], o: Options): { md: string; verdicts: string[] } {
  const lines: string[] = [];
  const verdicts: string[] = [];
  lines.push('# Benchmark: service vs hand-written baseline', '');
  for (const [k, v] of Object.entries(meta)) lines.push(`- ${k}: ${v}`);
  lines.push('');
  lines.push(
    `## Throughput and latency (${o.connections} connections, ${o.duration} s per measurement after a ${warmupSeconds(o)} s warm-up, median of ${o.rounds} round${o.rounds > 1 ? 's' : ''})`,
    '',
  );
  lines.push('| operation | req/s service | req/s baseline | ratio req/s | p50 ms service | p50 ms baseline | p99 ms service | p99 ms baseline | peak RSS MB service | peak RSS MB baseline | target | met |');
  lines.push('|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|---|');
  for (const { op, service, baseline } of ops) {
    const s = summarize(service);
    const b = summarize(baseline);
    const ratio = s.rps / b.rps;
    let target = '–';
    let met = '–';
    if (op.target?.minRatio !== undefined) {
      target = `req/s ≥ ${op.target.minRatio} × baseline`;
      met = ratio >= op.target.minRatio ? 'yes' : 'no';
      verdicts.push(`${op.label}: ${met === 'yes' ? 'met' : 'NOT met'}: service req/s ${fmt(ratio, 2)} × the baseline's (target ≥ ${op.target.minRatio})`);
    } else if (op.target?.maxTime !== undefined) {
      // Time per request at the same concurrency: the inverse of throughput.
      const timeRatio = b.rps / s.rps;
      target = `time ≤ ${op.target.maxTime} × baseline (${fmt(timeRatio, 2)}×)`;
      met = timeRatio <= op.target.maxTime ? 'yes' : 'no';
      verdicts.push(
        `${op.label}: ${met === 'yes' ? 'met' : 'NOT met'}: service time per request ${fmt(timeRatio, 2)} × the baseline's (target ≤ ${op.target.maxTime}; p50 ${fmt(s.p50 / b.p50, 2)}×)`,
      );
    }
    const failed = s.failures + b.failures > 0 ? ` (failed requests: service ${s.failures}, baseline ${b.failures})` : '';
    lines.push(
      `| ${op.label}${failed} | ${fmt(s.rps)} | ${fmt(b.rps)} | ${fmt(ratio, 2)} | ${ms(s.p50)} | ${ms(b.p50)} | ${ms(s.p99)} | ${ms(b.p99)} | ${fmt(s.rss)} | ${fmt(b.rss)} | ${target} | ${met} |`,
    );
  }
  lines.push('');
  lines.push('Ratio req/s = service ÷ baseline (1.00 = as fast as the floor). Latencies are per request under load; RSS is the highest VmRSS sampled every 100 ms during the measurement.');
  lines.push('');

  lines.push(`## How cost grows (sequential requests on one connection, median time per request, median of ${o.rounds} round${o.rounds > 1 ? 's' : ''})`, '');
  lines.push('| operation | rows | ms/request service | ms/request baseline | µs/row service | µs/row baseline | ratio | marginal µs/row service | marginal µs/row baseline |');
  lines.push('|---|--:|--:|--:|--:|--:|--:|--:|--:|');
  const byKey = new Map<string, ScaleSummary[]>();
  for (const s of scaling) byKey.set(s.c.key, [...(byKey.get(s.c.key) ?? []), s]);
  for (const [key, cases] of byKey) {
    let prev: { rows: number; s: number; b: number } | undefined;
    const perRow: { s: number[]; b: number[] } = { s: [], b: [] };
    for (const c of cases) {
      const s = median(c.service);
      const b = median(c.baseline);
      perRow.s.push((s * 1000) / c.c.rows);
      perRow.b.push((b * 1000) / c.c.rows);
      const marginal = prev ? [((s - prev.s) * 1000) / (c.c.rows - prev.rows), ((b - prev.b) * 1000) / (c.c.rows - prev.rows)] : [NaN, NaN];
      lines.push(
        `| ${key} | ${fmt(c.c.rows)} | ${ms(s)} | ${ms(b)} | ${fmt((s * 1000) / c.c.rows, 1)} | ${fmt((b * 1000) / c.c.rows, 1)} | ${fmt(s / b, 2)} | ${fmt(marginal[0], 1)} | ${fmt(marginal[1], 1)} |`,
      );
      prev = { rows: c.c.rows, s, b };
    }
    const growthS = growth(perRow.s);
    const growthB = growth(perRow.b);
    const first = cases[0].c.rows;
    const last = cases[cases.length - 1].c.rows;
    verdicts.push(
      `${key}, per-row cost from ${fmt(first)} to ${fmt(last)} rows: ${growthS <= 1.5 ? 'met' : 'NOT met'}: µs/row rises at most ${fmt(growthS, 2)}× as rows grow ` +
        `(target ≤ 1.5; baseline ${fmt(growthB, 2)}×; from ${fmt(first)} to ${fmt(last)} rows the service's µs/row goes ${fmt(perRow.s[0], 1)} → ${fmt(perRow.s[perRow.s.length - 1], 1)})`,
    );
  }
  lines.push('');
  lines.push(
    'µs/row = time per request ÷ rows: a fixed per-request cost makes it fall as rows grow, so cost that grows faster than the row count shows up as µs/row rising with size. ' +
      'The target is checked as the largest rise of µs/row from any size to a larger one (1.00 or less: no rise). ' +
      'Marginal µs/row = extra time per extra row from one size to the next: the per-row cost without the fixed part.',
  );
  lines.push('');
  lines.push('## Targets', '');
  for (const v of verdicts) lines.push(`- ${v}`);
  lines.push('');
  return { md: lines.join('\n'), verdicts };
}

/** The largest rise of per-row cost from a size to any larger one: 1 or less when it never rises. */
function growth(perRow: number[]): number {
  let worst = 0;
  for (let i = 0; i < perRow.length; i++) for (let j = i + 1; j < perRow.length; j++) worst = Math.max(worst, perRow[j] / perRow[i]);
  return worst;
}

function describeMachine(): Record<string, string> {
  const cpu = cpus();
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    if (dirty) commit += ' with uncommitted changes';
  } catch {
    // not a git checkout
  }
  return {
    cpus: `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown'}`,
    memory: `${fmt(totalmem() / 2 ** 30, 1)} GiB`,
    os: `Linux ${release()}`,
    node: process.version,
    commit,
  };
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  const url = process.env.DATABASE_URL?.trim();
  if (!url || !/^(mysql|mariadb):\/\//i.test(url)) {
    throw new UsageError(
      'npm run bench needs MySQL or MariaDB: set DATABASE_URL=mysql://user:password@host:3306/database (or mariadb://...), ' +
        'ideally a database of its own. The embedded SQLite database is not benchmarked.',
    );
  }
  for (const file of [SERVICE_MAIN, BASELINE_MAIN, LOAD_MAIN]) {
    if (!existsSync(file)) throw new UsageError(`${relative(ROOT, file)} is missing: run \`npm run build\` first (npm run bench does).`);
  }
  mkdirSync(RESULTS, { recursive: true });
  const started = Date.now();
  const loadAtStart = loadavg()[0];
  if (loadAtStart > 0.5) {
    log(`Note: load average ${loadAtStart.toFixed(2)} before the benchmark started: other processes are busy; absolute numbers will be lower and noisier (ratios hold better).`);
  }

  // 1. Dataset and token, through the service's own code (migrations run here when needed).
  log(`Booting the service's application context on ${databaseName(url)}...`);
  const app = await NestFactory.createApplicationContext(AppModule, { logger: createLogger({ logLevel: 'warn', logFormat: 'json' }) });
  let dataset: Dataset;
  let token: string;
  let tokenID: string;
  const pool = createPool({ uri: url.replace(/^mariadb:/i, 'mysql:'), connectionLimit: 2, timezone: 'Z' });
  try {
    if (o.skipSeed) {
      if (!existsSync(DATASET_FILE)) throw new UsageError(`--skip-seed: ${relative(ROOT, DATASET_FILE)} does not exist; run once without --skip-seed`);
      dataset = JSON.parse(readFileSync(DATASET_FILE, 'utf8')) as Dataset;
      await checkDataset(pool, dataset, url);
      log(`Reusing the dataset of ${dataset.createdAt} (${relative(ROOT, DATASET_FILE)}).`);
    } else {
      log('Seeding through SeedService, InvitesService and InviteLifecycleService...');
      const t0 = Date.now();
      dataset = await seed(app, url);
      writeFileSync(DATASET_FILE, `${JSON.stringify(dataset, null, 2)}\n`);
      log(`Seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s; ids in ${relative(ROOT, DATASET_FILE)}.`);
    }
    const created = await app.get(TokensService).create({ isAdmin: true, name: 'bench admin' });
    token = created.token;
    tokenID = created.id;
  } finally {
    await app.close();
  }

  const servers: Server[] = [];
  const opRuns: OpSummary[] = OPS.map((op) => ({ op, service: [], baseline: [] }));
  const scaleRuns: ScaleSummary[] = SCALING.map((c) => ({ c, service: [], baseline: [] }));
  const meta: Record<string, string> = {};
  try {
    await cleanWrites(pool, dataset);
    const [[version]] = await pool.query<RowDataPacket[]>('SELECT VERSION() AS v');
    const [[totals]] = await pool.query<RowDataPacket[]>(
      'SELECT (SELECT COUNT(*) FROM products) AS products, (SELECT COUNT(*) FROM invites) AS invites, (SELECT COUNT(*) FROM profiles) AS profiles, (SELECT COUNT(*) FROM interviews) AS interviews',
    );

    // 2. The two servers, and a check that they answer alike.
    log('Starting the service (node dist/src/main.js, NODE_ENV=production, LOG_LEVEL=info) and the baseline...');
    const env = { ...process.env, NODE_ENV: 'production' };
    servers.push(
      await startServer('service', SERVICE_MAIN, {
        ...env,
        LOG_LEVEL: 'info',
        MIGRATIONS_RUN: 'false',
        // The per-token rate limit stays on (its cost is part of the service) but out of reach.
        RATE_LIMIT_MAX: '1000000',
        RATE_LIMIT_WINDOW_SECONDS: '1',
      }),
    );
    servers.push(await startServer('baseline', BASELINE_MAIN, env));
    await checkParity(servers, dataset, token);
    await cleanWrites(pool, dataset);
    log('Both servers answer every operation alike.');

    // 3. Load: round by round, each operation against both servers. The order alternates by round:
    // the rows a write measurement leaves are deleted after it, and InnoDB purges them in the
    // background, which would otherwise always slow whichever server goes second.
    const perMeasurement = o.duration + warmupSeconds(o);
    const scaleSeconds = Math.max(1, Math.round(o.duration / 5));
    const estimate = o.rounds * (OPS.length * 2 * (perMeasurement + 1) + SCALING.length * 2 * (scaleSeconds + 1));
    log(`Measuring: about ${Math.ceil(estimate / 60)} min.`);

    for (let round = 1; round <= o.rounds; round++) {
      const order = round % 2 === 1 ? servers : [...servers].reverse();
      for (const run of opRuns) {
        for (const server of order) {
          const m = await drive(server, run.op, dataset, token, o);
          assertAlive(server);
          await waitQuiet(server);
          run[server.name].push(m);
          const failed = m.non2xx + m.errors + m.timeouts;
          log(
            `[${round}/${o.rounds}] ${run.op.label.padEnd(36)} ${server.name.padEnd(8)} ${fmt(m.reqPerSec).padStart(6)} req/s  p50 ${ms(m.latencyMs.p50).padStart(6)} ms  ` +
              `p99 ${ms(m.latencyMs.p99).padStart(6)} ms  RSS ${fmt(m.peakRssMb)} MB${failed ? `  FAILED ${failed} (${JSON.stringify(m.statusCodes)})` : ''}`,
          );
          if (run.op.write) await settleAfterCleanup(pool, dataset);
        }
      }
      for (const run of scaleRuns) {
        for (const server of order) {
          const t = await timeSequential(server, run.c.path(dataset), token, scaleSeconds);
          assertAlive(server);
          run[server.name].push(t.medianMs);
          log(`[${round}/${o.rounds}] ${`${run.c.key} × ${run.c.rows}`.padEnd(36)} ${server.name.padEnd(8)} ${ms(t.medianMs).padStart(6)} ms/request (${t.n} sequential)`);
          if (run.c.write) await settleAfterCleanup(pool, dataset);
        }
      }
    }

    Object.assign(
      meta,
      {
        date: new Date().toISOString(),
        database: `${version.v} (${databaseName(url)})`,
        dataset:
          `${fmt(Number(totals.products))} products (organizations of 100, 1,000 and 10,000), ${fmt(Number(totals.interviews))} interviews, ` +
          `${fmt(Number(totals.invites))} invites (one interview with 1,000 completed 20-turn transcripts), ${fmt(Number(totals.profiles))} profiles; seeded ${dataset.createdAt}`,
        options: `--duration ${o.duration} --connections ${o.connections} --rounds ${o.rounds}${o.skipSeed ? ' --skip-seed' : ''}`,
        service: 'node dist/src/main.js, NODE_ENV=production, LOG_LEVEL=info (stdout to bench/results/service.log), RATE_LIMIT_MAX=1000000 per 1 s',
        baseline: 'node dist/bench/baseline/server.js: node:http + mysql2, same pool settings, same queries, token check and envelope',
        'load generator': `autocannon 8 in its own process (dist/bench/load.js), ${o.connections} connections`,
      },
      describeMachine(),
      {
        'load average (1 min)': `${loadAtStart.toFixed(2)} when the run started (other processes), ${loadavg()[0].toFixed(2)} at the end (the benchmark keeps about 2 busy); ${cpus().length} cores`,
      },
    );
    for (const s of servers) meta[`${s.name} VmHWM (peak RSS over the whole run)`] = `${fmt(highWaterMb(s.child.pid!))} MB`;
  } finally {
    await Promise.all(servers.map((s) => stopChild(s.child)));
    await cleanWrites(pool, dataset).catch(() => undefined);
    // The run's token is of no use afterwards.
    await pool.query('UPDATE api_tokens SET revoked_at = ? WHERE id = ?', [new Date(), tokenID]).catch(() => undefined);
    await pool.end();
  }

  // 4. Report.
  const logSizes = servers.map((s) => `${s.name}.log ${fmt(statSync(s.logFile).size / 2 ** 20, 1)} MB`).join(', ');
  meta['total time'] = `${fmt((Date.now() - started) / 1000)} s (logs: ${logSizes})`;
  const { md } = report(meta, opRuns, scaleRuns, o);
  writeFileSync(join(RESULTS, 'latest.md'), md);
  writeFileSync(
    join(RESULTS, 'latest.json'),
    `${JSON.stringify({ meta, options: o, operations: opRuns.map((r) => ({ key: r.op.key, service: r.service, baseline: r.baseline })), scaling: scaleRuns.map((r) => ({ key: r.c.key, rows: r.c.rows, serviceMs: r.service, baselineMs: r.baseline })) }, null, 2)}\n`,
  );
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
