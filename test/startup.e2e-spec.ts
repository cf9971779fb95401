import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { migrations } from '../src/database/migrations';
import { BuiltServer } from './helpers/built-server';

/**
 * What a newcomer reads when the built server starts: which database it uses, what its migrations did,
 * how to get a token, and warnings about development-only settings.
 */

jest.setTimeout(120_000);

const mysqlUrl = /^(mysql|mariadb):/i.test(process.env.DATABASE_URL ?? '') ? process.env.DATABASE_URL! : undefined;

/** The JSON log lines of the server's output with this msg. */
function logLines(server: BuiltServer, msg: string): Record<string, unknown>[] {
  return server.output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.msg === msg || (line.message as { msg?: string } | undefined)?.msg === msg);
}

/** A log record's fields, whether the logger nests them under `message` or not. */
const fields = (line: Record<string, unknown>) => (typeof line.message === 'object' && line.message !== null ? (line.message as Record<string, unknown>) : line);

describe('Start-up of the built server', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'irs-startup-'));
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('on a fresh embedded database: names the engine, says which migrations ran, prints one admin token; the next start says the schema is up to date', async () => {
    const env = { DATABASE_URL: `sqlite:${join(dir, 'fresh.sqlite')}` };
    const first = await BuiltServer.start(dir, env);
    try {
      const token = await first.firstRunToken();
      expect(fields(logLines(first, 'listening')[0])).toMatchObject({ database: 'sqlite', port: first.port });
      expect(fields(logLines(first, 'migrations applied')[0])).toMatchObject({ count: migrations.length, of: migrations.length });
      // Nest's wiring is one line at info; its module and route lines are for debug.
      expect(fields(logLines(first, 'application started')[0])).toMatchObject({ modules: expect.any(Number), routes: expect.any(Number) });
      expect((fields(logLines(first, 'application started')[0]) as { routes: number }).routes).toBeGreaterThan(40);
      expect(first.output).not.toMatch(/"Mapped \{|dependencies initialized|"RouterExplorer"|"InstanceLoader"/);
      const res = await fetch(`${first.base}/v1/interviewers/getList`, { headers: { Authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
    } finally {
      await first.kill('SIGTERM');
    }
    const second = await BuiltServer.start(dir, env);
    try {
      expect(fields(logLines(second, 'schema up to date')[0])).toMatchObject({ migrations: migrations.length });
      expect(logLines(second, 'migrations applied')).toEqual([]);
      expect(second.output).not.toMatch(/irs_[A-Za-z0-9_-]{43}/);
    } finally {
      await second.kill('SIGTERM');
    }
  });

  it('warns that WEBHOOK_ALLOW_LOCAL is for development only when it is on, and says nothing when it is off', async () => {
    const on = await BuiltServer.start(dir, { DATABASE_URL: `sqlite:${join(dir, 'local.sqlite')}`, WEBHOOK_ALLOW_LOCAL: 'true' });
    try {
      await on.waitFor('the warning', () => (on.output.includes('WEBHOOK_ALLOW_LOCAL is on') ? true : undefined), 5000);
      const warning = on.output.split('\n').find((line) => line.includes('WEBHOOK_ALLOW_LOCAL is on'))!;
      expect(JSON.parse(warning)).toMatchObject({ level: 'warn' });
    } finally {
      await on.kill('SIGTERM');
    }
    const off = await BuiltServer.start(dir, { DATABASE_URL: `sqlite:${join(dir, 'local.sqlite')}` });
    try {
      expect(off.output).not.toContain('WEBHOOK_ALLOW_LOCAL');
    } finally {
      await off.kill('SIGTERM');
    }
  });

  (mysqlUrl ? it : it.skip)('on MySQL/MariaDB without a token (MariaDB only): names the flavour and says how to create a token', async () => {
    const url = new URL(mysqlUrl!.replace(/^mariadb:/i, 'mysql:'));
    const database = `irs_startup_${process.pid}_${Date.now()}`;
    const admin = await createConnection({ host: url.hostname, port: Number(url.port || 3306), user: decodeURIComponent(url.username), password: decodeURIComponent(url.password) });
    await admin.query(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    try {
      url.pathname = `/${database}`;
      const server = await BuiltServer.start(dir, { DATABASE_URL: url.toString().replace(/^mysql:/, mysqlUrl!.split(':')[0] + ':') });
      try {
        await server.waitFor('the token hint', () => (server.output.includes('npm run token -- create --admin') ? true : undefined), 10_000);
        expect(fields(logLines(server, 'listening')[0])).toMatchObject({ database: /^mariadb:/i.test(mysqlUrl!) ? 'mariadb' : 'mysql' });
        expect(server.output).toContain('This database has no API token yet');
        expect(server.output).not.toMatch(/irs_[A-Za-z0-9_-]{43}/);
        // The command works as printed, from a shell that has no DATABASE_URL of its own.
        const command = /^ {2}(DATABASE_URL=.* npm run token -- create --admin)$/m.exec(server.output)?.[1];
        expect(command).toBeDefined();
        const created = await promisify(execFile)('sh', ['-c', command!], { cwd: join(__dirname, '..'), env: { PATH: process.env.PATH, HOME: process.env.HOME }, timeout: 150_000 });
        const token = /irs_[A-Za-z0-9_-]{43}/.exec(created.stdout)?.[0];
        expect(token).toMatch(/^irs_/);
        const res = await fetch(`${server.base}/v1/interviewers/getList`, { headers: { Authorization: `Bearer ${token}` } });
        expect(res.status).toBe(200);
      } finally {
        await server.kill('SIGTERM');
      }
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
      await admin.end();
    }
  }, 180_000);
});
