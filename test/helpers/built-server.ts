import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * The service as production runs it (node <build>/src/main.js), for the suites that signal or kill it.
 *
 * It is compiled with tsc (tsconfig.build.json, the same compiler settings as `nest build`) into a
 * private directory rather than the shared dist/: dist/ may be stale, and `nest build` deletes it
 * before writing, which would break any other process running it. One build serves a whole e2e run
 * (in IRS_E2E_TMPDIR); SHUTDOWN_SPEC_BUILD names an existing build instead. NODE_PATH points the build
 * at the project's node_modules.
 */

const ROOT = resolve(__dirname, '..', '..');

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => ok(port));
    });
  });
}

/** The compiled main.js, built on the first call of the run. */
export function builtMain(): string {
  const given = process.env.SHUTDOWN_SPEC_BUILD;
  const buildDir = given ? resolve(given) : join(process.env.IRS_E2E_TMPDIR ?? mkdtempSync(join(tmpdir(), 'irs-build-')), 'build');
  const mainJs = join(buildDir, 'src', 'main.js');
  if (existsSync(mainJs)) return mainJs;
  if (given) throw new Error(`SHUTDOWN_SPEC_BUILD=${buildDir} holds no src/main.js`);
  const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', buildDir], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 80_000,
  });
  if (!existsSync(mainJs)) throw new Error(`tsc did not produce ${mainJs} (${tsc.status ?? tsc.signal}):\n${tsc.stdout}\n${tsc.stderr}`);
  if (tsc.status !== 0) process.stderr.write(`built server: tsc reported type errors but emitted the build:\n${tsc.stdout.slice(0, 2000)}\n`);
  // What nest-cli.json's "assets" copies next to the compiled code.
  cpSync(join(ROOT, 'src', 'room', 'assets'), join(buildDir, 'src', 'room', 'assets'), { recursive: true });
  cpSync(join(ROOT, 'src', 'languages', 'catalogs'), join(buildDir, 'src', 'languages', 'catalogs'), { recursive: true });
  return mainJs;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  at: number;
}

/**
 * How `child` ends. Until it does, a test process that exits (crashed or not) takes it down with
 * SIGKILL, so no server or database is ever left running behind a test run.
 */
export function reapOnExit(child: ChildProcess): Promise<Exit> {
  const reap = () => child.kill('SIGKILL');
  process.once('exit', reap);
  return new Promise((ok) =>
    child.once('exit', (code, signal) => {
      process.removeListener('exit', reap);
      ok({ code, signal, at: Date.now() });
    }),
  );
}

/** One running server process, its output, and how it ended. */
export class BuiltServer {
  readonly stdout: string[] = [];
  readonly stderr: string[] = [];
  readonly exited: Promise<Exit>;

  private constructor(
    readonly child: ChildProcess,
    readonly port: number,
  ) {
    this.exited = reapOnExit(child);
    child.stdout!.setEncoding('utf8').on('data', (s: string) => this.stdout.push(s));
    child.stderr!.setEncoding('utf8').on('data', (s: string) => this.stderr.push(s));
  }

  /**
   * Starts the build in `cwd` (a directory without a .env file) with a minimal environment plus `env`,
   * and waits for its "listening" log line.
   */
  static async start(cwd: string, env: Record<string, string>): Promise<BuiltServer> {
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const child = spawn(process.execPath, [builtMain()], {
        cwd,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_PATH: join(ROOT, 'node_modules'), PORT: String(port), LOG_LEVEL: 'info', LOG_FORMAT: 'json', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const server = new BuiltServer(child, port);
      try {
        await server.waitFor('the "listening" log line', () => (server.output.split('\n').some((l) => l.includes('"listening"')) ? true : undefined), 30_000);
        return server;
      } catch (error) {
        // Another process on a busy machine took the free port between our look and the server's listen.
        const taken = `${server.output}${server.stderr.join('')}`.includes('EADDRINUSE');
        if (!taken || attempt >= 3) throw error;
        await server.kill();
      }
    }
  }

  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get output(): string {
    return this.stdout.join('');
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  async waitFor<T>(what: string, find: () => T | undefined, timeoutMs: number): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = find();
      if (found !== undefined) return found;
      if (!this.running) throw new Error(`server exited while waiting for ${what}:\n${this.output.slice(-3000)}\n${this.stderr.join('').slice(-3000)}`);
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${this.output.slice(-3000)}\n${this.stderr.join('').slice(-3000)}`);
      await sleep(25);
    }
  }

  /** The first-run admin token a fresh embedded database prints. */
  firstRunToken(): Promise<string> {
    return this.waitFor('the first-run admin token', () => /irs_[A-Za-z0-9_-]{43}/.exec(this.output)?.[0], 10_000);
  }

  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<Exit> {
    if (this.running) this.child.kill(signal);
    return this.exited;
  }
}
