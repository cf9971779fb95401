import { Logger } from '@nestjs/common';
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { TestApp, bearer, scopedToken, startApp, uniq } from './helpers/app';
import { freePort, reapOnExit, sleep } from './helpers/built-server';

/**
 * Two instances of the service on one database, sharing their rate-limit counters through a Redis of
 * this test's own (its own port, nothing kept on disk), which it stops and starts again. Skipped,
 * visibly, where redis-server is not installed (CI installs it).
 */

jest.setTimeout(60_000);

const REDIS = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).stdout.trim();
const LIMIT = 10;

class ThrowawayRedis {
  private child?: ChildProcess;
  private exited: Promise<unknown> = Promise.resolve();

  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn(REDIS, ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    this.child = child;
    this.exited = reapOnExit(child);
    // Ready once it answers PING.
    for (let i = 0; i < 100; i++) {
      if (spawnSync('redis-cli', ['-p', String(this.port), 'ping'], { encoding: 'utf8' }).stdout.trim() === 'PONG') return;
      await sleep(50);
    }
    throw new Error('redis-server did not start');
  }

  async stop(): Promise<void> {
    this.child?.kill('SIGKILL');
    await this.exited;
  }
}

(REDIS ? describe : describe.skip)(`Two instances sharing rate limits through Redis${REDIS ? '' : ' (skipped: redis-server not installed)'}`, () => {
  let redis: ThrowawayRedis;
  let a: TestApp;
  let b: TestApp;
  const prefix = `${uniq('e2e')}:`;

  beforeAll(async () => {
    redis = new ThrowawayRedis(await freePort());
    await redis.start();
    const env = { REDIS_URL: redis.url, REDIS_KEY_PREFIX: prefix, RATE_LIMIT_MAX: String(LIMIT), RATE_LIMIT_WINDOW_SECONDS: '60' };
    [a, b] = [await startApp(env), await startApp(env)];
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await redis?.stop();
  });

  /** `n` requests with one token, alternating between the two instances; the statuses in order. */
  async function burst(token: string, n: number): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = i % 2 === 0 ? a : b;
      statuses.push((await t.http.get('/v1/products/getList').query({ orgID: 'x' }).set(bearer(token))).status);
    }
    return statuses;
  }

  const allowed = (statuses: number[]) => statuses.filter((s) => s === 200).length;

  /** Until a fresh token's burst across both instances is held to the limit in total (Redis is back). */
  async function sharedAgain(): Promise<{ afterMs: number; statuses: number[] }> {
    const started = Date.now();
    for (;;) {
      const statuses = await burst(await scopedToken(a, { orgID: uniq('org') }), LIMIT * 3);
      if (allowed(statuses) === LIMIT || Date.now() - started > 15_000) return { afterMs: Date.now() - started, statuses };
      await sleep(250);
    }
  }

  it('holds one token to the limit in total across both instances', async () => {
    // The first burst may come before both connections are ready: wait until they are.
    const { statuses } = await sharedAgain();
    expect(allowed(statuses)).toBe(LIMIT);
    expect(statuses.slice(LIMIT).every((s) => s === 429)).toBe(true);
    process.stdout.write(`scale-out: ${statuses.length} requests with one token across two instances, limit ${LIMIT}: ${allowed(statuses)} allowed\n`);
  });

  it('keeps serving with per-process counters while Redis is away, says so once, and shares them again once it is back', async () => {
    // What the instances log, as they say it to Nest's Logger (which passes it on to pino).
    const said = (spy: jest.SpyInstance, msg: string) => spy.mock.calls.filter(([record]) => (record as { msg?: string })?.msg?.startsWith(msg)).length;
    const warn = jest.spyOn(Logger.prototype, 'warn');
    const log = jest.spyOn(Logger.prototype, 'log');
    let during: number[];
    let back: { afterMs: number; statuses: number[] };
    let unreachable = 0;
    let reshared = 0;
    try {
      await redis.stop();
      const token = await scopedToken(a, { orgID: uniq('org') });
      during = await burst(token, LIMIT * 3);
      await sleep(2500); // reconnection attempts go on meanwhile: they must not be logged again
      await redis.start();
      back = await sharedAgain();
    } finally {
      unreachable = said(warn, 'Redis unreachable');
      reshared = said(log, 'rate limits shared through Redis');
      warn.mockRestore();
      log.mockRestore();
    }
    // No request failed; each instance counted on its own, so together they allowed twice the limit.
    expect(during.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    expect(allowed(during)).toBe(2 * LIMIT);
    expect(allowed(back.statuses)).toBe(LIMIT);
    // Each instance said it once when Redis went, and once when it came back.
    expect(unreachable).toBe(2);
    expect(reshared).toBe(2);
    process.stdout.write(
      `scale-out: Redis stopped: ${during.length} requests, ${allowed(during)} allowed (each instance its own ${LIMIT}); ` +
        `Redis back: shared again within ${back.afterMs} ms, ${allowed(back.statuses)} of ${back.statuses.length} allowed\n`,
    );
  });
});
