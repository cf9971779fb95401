/**
 * The benchmark's child processes: the servers under test and the load generator. Every one is
 * registered, and all are ended on exit, on an error and on Ctrl-C. Also what the harness reads of
 * them: HTTP answers, CPU time and resident memory (from /proc).
 */
import { ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { AddressInfo, createServer } from 'node:net';
import { join, relative } from 'node:path';
import { RESULTS, ROOT, log, sleep } from './cli';

const children = new Set<ChildProcess>();

export function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export async function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

export async function stopAll(): Promise<void> {
  await Promise.all([...children].map((c) => stopChild(c)));
}

/** No child outlives the harness: killed when it exits, stopped on SIGINT and SIGTERM. */
export function stopChildrenOnExit(): void {
  process.on('exit', () => {
    for (const child of children) child.kill('SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      log(`\n${signal}: stopping the servers and the load generator`);
      void stopAll().finally(() => process.exit(130));
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Servers

/** A server under test: what to start and how to name it. */
export interface ServerSpec {
  /** Short name: its log file (bench/results/<name>.log) and its key in latest.json. */
  name: string;
  /** Its name in the report's columns: "service", "bare Nest". */
  label: string;
  /** Its name in a sentence: "the service", "bare Nest". */
  phrase: string;
  /**
   * The operations it answers, by key (an Op's or a ScaleCase's): it is checked and measured on these
   * only, and the report shows "–" for it on the others. All of them when absent.
   */
  operations?: readonly string[];
  /** The built entry point, run with this Node. */
  script: string;
  /** Where it runs: this checkout unless another (--compare: an earlier build, with its own node_modules). */
  cwd?: string;
  /**
   * An earlier build of the service (--compare): checked on status codes, not bodies (the service has
   * gained fields since), and judged against, not by, the targets set on textbook Nest.
   */
  earlier?: boolean;
  env: NodeJS.ProcessEnv;
  /** One line for the report's header: what runs and how. */
  description: string;
}

/** Whether a server answers the operation (or growth case) `key`. */
export function serves(server: Pick<ServerSpec, 'operations'>, key: string): boolean {
  return !server.operations || server.operations.includes(key);
}

export interface Server extends ServerSpec {
  port: number;
  child: ChildProcess;
  logFile: string;
}

/** A port nothing listens on now, from the kernel. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export interface HttpReply {
  status: number;
  body: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** One request on a kept-alive connection (one per port), the whole body as text. */
export function http(port: number, method: string, path: string, headers: Record<string, string> = {}, body?: string, timeoutMs = 60_000): Promise<HttpReply> {
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

/** Starts the server on a free port, its output to bench/results/<name>.log; resolves once /health answers 200. */
export async function startServer(spec: ServerSpec): Promise<Server> {
  const port = await freePort();
  const logFile = join(RESULTS, `${spec.name}.log`);
  const fd = openSync(logFile, 'w');
  const child = track(spawn(process.execPath, [spec.script], { cwd: spec.cwd ?? ROOT, env: { ...spec.env, PORT: String(port) }, stdio: ['ignore', fd, fd] }));
  closeSync(fd);
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${spec.phrase} exited while starting (${child.exitCode ?? child.signalCode}); ${relative(ROOT, logFile)}:\n${tail(logFile)}`);
    }
    const ok = await http(port, 'GET', '/health', {}, undefined, 2000).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return { ...spec, port, child, logFile };
    if (Date.now() > deadline) throw new Error(`${spec.phrase} did not answer /health within 60 s; ${relative(ROOT, logFile)}:\n${tail(logFile)}`);
    await sleep(200);
  }
}

export function assertAlive(server: Server): void {
  const { exitCode, signalCode } = server.child;
  if (exitCode !== null || signalCode !== null) {
    throw new Error(`${server.phrase} exited during the run (${exitCode ?? signalCode}); ${relative(ROOT, server.logFile)}:\n${tail(server.logFile)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// CPU and memory, from /proc

/** The process's user and system time so far, in clock ticks (10 ms: USER_HZ on Linux). */
export function cpuTicks(pid: number): number {
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
export async function waitQuiet(server: Server): Promise<void> {
  const deadline = Date.now() + 60_000;
  let before = cpuTicks(server.child.pid!);
  while (Date.now() < deadline) {
    await sleep(250);
    const now = cpuTicks(server.child.pid!);
    if (!(now - before > 1)) return;
    before = now;
  }
}

/** Highest VmRSS seen while sampling (every 100 ms), in MB: the peak of one measurement. */
export class RssSampler {
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

/** VmRSS now, in MB. */
export function rssMb(pid: number): number {
  try {
    const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** VmHWM: the process's peak resident memory over its whole life, in MB. */
export function highWaterMb(pid: number): number {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}
