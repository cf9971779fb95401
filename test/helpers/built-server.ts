import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');

/**
 * The server as production runs it (node <build>/src/main.js), compiled with tsc (tsconfig.build.json,
 * the settings of `nest build`) into a private directory rather than the shared dist/, which may be
 * stale and which `nest build` deletes before writing. Compiled once per e2e run, into the run's
 * directory (global setup), which the global teardown removes. E2E_BUILD names an existing build to
 * use instead.
 */
export function builtServer(): string {
  const given = process.env.E2E_BUILD;
  if (given) {
    if (!existsSync(join(given, 'src', 'main.js'))) throw new Error(`E2E_BUILD=${given} holds no src/main.js`);
    return resolve(given);
  }
  const dir = join(process.env.IRS_E2E_RUN_DIR ?? mkdtempSync(join(tmpdir(), 'irs-build-')), 'build');
  if (existsSync(join(dir, 'src', 'main.js'))) return dir;
  const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', dir], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 80_000,
  });
  if (!existsSync(join(dir, 'src', 'main.js'))) throw new Error(`tsc did not produce ${dir}/src/main.js (${tsc.status ?? tsc.signal}):\n${tsc.stdout}\n${tsc.stderr}`);
  if (tsc.status !== 0) process.stderr.write(`built server: tsc reported type errors but emitted the build:\n${tsc.stdout.slice(0, 2000)}\n`);
  // What nest-cli.json's "assets" copies next to the compiled code.
  cpSync(join(ROOT, 'src', 'room', 'assets'), join(dir, 'src', 'room', 'assets'), { recursive: true });
  return dir;
}

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

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  base: string;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts the built server in `cwd` (a directory without a .env file) with a minimal environment plus
 * `env`, and resolves once it logs "listening". NODE_PATH points the build at the project's node_modules.
 */
export async function startServer(buildDir: string, cwd: string, env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(buildDir, 'src', 'main.js')], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_PATH: join(ROOT, 'node_modules'), PORT: String(port), LOG_LEVEL: 'info', LOG_FORMAT: 'json', RATE_LIMIT_MAX: '1000000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Never leave a server running behind a crashed test process.
  const reap = () => child.kill('SIGKILL');
  process.once('exit', reap);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((ok) =>
    child.once('exit', (code, signal) => {
      process.removeListener('exit', reap);
      ok({ code, signal });
    }),
  );
  const chunks: string[] = [];
  child.stdout!.setEncoding('utf8').on('data', (s: string) => chunks.push(s));
  child.stderr!.setEncoding('utf8').on('data', (s: string) => chunks.push(s));
  const output = () => chunks.join('');
  const deadline = Date.now() + 30_000;
  while (!output().split('\n').some((l) => l.includes('"listening"'))) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited while starting:\n${output().slice(-3000)}`);
    if (Date.now() > deadline) throw new Error(`server did not start within 30 s:\n${output().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return { child, port, base: `http://127.0.0.1:${port}`, output, exited };
}
