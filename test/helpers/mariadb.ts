import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { reapOnExit, sleep } from './built-server';

/**
 * A throwaway MariaDB for the fault suites: its own data directory and port, 127.0.0.1 only, started
 * from this machine's mariadbd as a child process, so a test can kill it, freeze it and start it again
 * without touching the suite's shared database.
 */

/** An executable on PATH or in the sbin directories, where Debian installs mariadbd. */
function findExecutable(names: string[]): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin', '/usr/bin', '/usr/local/bin'].filter(Boolean);
  for (const name of names) {
    for (const dir of dirs) {
      const file = join(dir, name);
      try {
        accessSync(file, constants.X_OK);
        return file;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

export const MARIADBD = findExecutable(['mariadbd']);
export const INSTALL_DB = MARIADBD ? findExecutable(['mariadb-install-db', 'mysql_install_db']) : undefined;
export const hasMariadb = !!MARIADBD && !!INSTALL_DB;

/** A MariaDB server in a temp directory, started from mariadbd as a child process. */
export class ThrowawayMariadb {
  private child: ChildProcess | undefined;
  private exited: Promise<unknown> = Promise.resolve();
  readonly datadir: string;

  constructor(
    readonly dir: string,
    readonly port: number,
  ) {
    this.datadir = join(dir, 'data');
  }

  install(): void {
    const res = spawnSync(
      INSTALL_DB!,
      ['--no-defaults', `--datadir=${this.datadir}`, '--auth-root-authentication-method=normal', '--skip-test-db', '--user=root', '--innodb-log-file-size=16M'],
      { encoding: 'utf8', timeout: 60_000 },
    );
    if (res.status !== 0) throw new Error(`${INSTALL_DB} failed (${res.status ?? res.signal}): ${res.stderr}\n${res.stdout}`);
  }

  start(): void {
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) throw new Error('mariadbd is already running');
    const child = spawn(
      MARIADBD!,
      [
        '--no-defaults',
        `--datadir=${this.datadir}`,
        `--port=${this.port}`,
        `--socket=${join(this.dir, 'sock')}`,
        `--pid-file=${join(this.dir, 'mariadbd.pid')}`,
        `--log-error=${join(this.dir, 'error.log')}`,
        '--bind-address=127.0.0.1',
        '--user=root',
        '--skip-log-bin',
        '--skip-name-resolve',
        '--innodb-buffer-pool-size=32M',
        '--innodb-log-file-size=16M',
      ],
      { stdio: 'ignore' },
    );
    this.child = child;
    this.exited = reapOnExit(child);
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** SIGKILL, as a crash or an OOM kill would; resolves when the process is gone. */
  async kill(): Promise<void> {
    if (this.running) this.child!.kill('SIGKILL');
    await this.exited;
  }

  /** SIGSTOP: the server keeps its connections open and answers nothing, as a frozen disk or host would. */
  freeze(): void {
    if (this.running) this.child!.kill('SIGSTOP');
  }

  thaw(): void {
    if (this.running) this.child!.kill('SIGCONT');
  }

  errorLogTail(): string {
    const file = join(this.dir, 'error.log');
    return existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(-15).join('\n') : '(no error log)';
  }

  /** Polls with mysql2 until the server answers SELECT 1; returns when it does. */
  async waitReady(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let last: unknown;
    while (Date.now() < deadline) {
      if (!this.running) throw new Error(`mariadbd exited during startup:\n${this.errorLogTail()}`);
      try {
        const conn = await createConnection({ host: '127.0.0.1', port: this.port, user: 'root', connectTimeout: 500 });
        try {
          await conn.query('SELECT 1');
          return;
        } finally {
          await conn.end().catch(() => undefined);
        }
      } catch (e) {
        last = e;
        await sleep(25);
      }
    }
    throw new Error(`mariadbd did not accept connections within ${timeoutMs} ms (${String(last)}):\n${this.errorLogTail()}`);
  }

  async sql(statement: string): Promise<void> {
    const conn = await createConnection({ host: '127.0.0.1', port: this.port, user: 'root', connectTimeout: 2000 });
    try {
      await conn.query(statement);
    } finally {
      await conn.end().catch(() => undefined);
    }
  }
}
