import { EventEmitter } from 'node:events';
import type * as Mysql2 from 'mysql2';
import { DatabaseTimeoutError, mysqlWithStatementTimeout } from './statement-timeout';

type Callback = (err: Error | null, ...results: unknown[]) => void;

/** A connection that answers each query after `delays[sql]` ms (never, for Infinity), as mysql2's callback API does. */
class FakeConnection extends EventEmitter {
  destroyed = false;
  released = 0;
  constructor(private readonly delays: Record<string, number>) {
    super();
  }
  query(sql: string, values: unknown[], cb: Callback): void {
    const ms = this.delays[sql] ?? 0;
    if (ms !== Infinity) setTimeout(() => cb(this.destroyed ? new Error('Connection lost') : null, [{ sql }], []), ms);
  }
  destroy(): void {
    this.destroyed = true;
  }
  release(): void {
    this.released++;
  }
  /** As mysql2's: a new promise wrapper on every call, sending its queries through this connection's query. */
  promise(promiseImpl?: PromiseConstructor): { connection: FakeConnection; promiseImpl?: PromiseConstructor } {
    return { connection: this, promiseImpl };
  }
}

/** A pool that hands out its one connection after `acquireMs`. */
class FakePool {
  readonly connection: FakeConnection;
  constructor(
    private readonly acquireMs: number,
    delays: Record<string, number> = {},
  ) {
    this.connection = new FakeConnection(delays);
  }
  getConnection(cb: (err: Error | null, c?: FakeConnection) => void): void {
    if (this.acquireMs !== Infinity) setTimeout(() => cb(null, this.connection), this.acquireMs);
  }
}

function driverFor(pool: FakePool, timeoutMs: number): Mysql2.Pool {
  const fakeMysql = { createPool: () => pool } as unknown as typeof Mysql2;
  return mysqlWithStatementTimeout(fakeMysql, timeoutMs).createPool({});
}

const acquire = (pool: Mysql2.Pool) =>
  new Promise<Mysql2.PoolConnection>((resolve, reject) => pool.getConnection((err, c) => (err ? reject(err) : resolve(c))));
const query = (c: Mysql2.PoolConnection, sql: string) =>
  new Promise<unknown>((resolve, reject) => (c.query as unknown as (s: string, v: unknown[], cb: Callback) => void)(sql, [], (err, rows) => (err ? reject(err) : resolve(rows))));

describe(mysqlWithStatementTimeout.name, () => {
  it('passes answers that come in time through unchanged', async () => {
    const pool = new FakePool(5, { 'SELECT 1': 5 });
    const c = await acquire(driverFor(pool, 200));
    await expect(query(c, 'SELECT 1')).resolves.toEqual([{ sql: 'SELECT 1' }]);
    expect(pool.connection.destroyed).toBe(false);
  });

  it('ends a query that gets no answer with a timeout, and destroys its connection so nobody reuses it', async () => {
    const pool = new FakePool(0, { 'SELECT SLEEP(60)': Infinity });
    const c = await acquire(driverFor(pool, 50));
    const started = Date.now();
    const failed = query(c, 'SELECT SLEEP(60)');
    await expect(failed).rejects.toBeInstanceOf(DatabaseTimeoutError);
    await expect(failed).rejects.toMatchObject({ code: 'PROTOCOL_SEQUENCE_TIMEOUT', message: 'the database did not answer a query within 50 ms' });
    expect(Date.now() - started).toBeLessThan(500);
    expect(pool.connection.destroyed).toBe(true);
  });

  it('ignores an answer that arrives after the timeout', async () => {
    const pool = new FakePool(0, { slow: 80 });
    const c = await acquire(driverFor(pool, 20));
    await expect(query(c, 'slow')).rejects.toBeInstanceOf(DatabaseTimeoutError);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(pool.connection.destroyed).toBe(true);
  });

  it('ends the wait for a free connection, and releases one that comes too late', async () => {
    const pool = new FakePool(80);
    await expect(acquire(driverFor(pool, 20))).rejects.toMatchObject({ message: 'the database did not answer with a free connection within 20 ms' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(pool.connection.released).toBe(1);
  });

  it('guards each connection once, however often it is handed out', async () => {
    const pool = new FakePool(0, { q: 0 });
    const driver = driverFor(pool, 100);
    const first = await acquire(driver);
    const second = await acquire(driver);
    expect(second).toBe(first);
    await expect(query(second, 'q')).resolves.toEqual([{ sql: 'q' }]);
  });

  it('gives each connection one promise wrapper (TypeORM asks for it on every query), unless a Promise class is named', async () => {
    const pool = new FakePool(0);
    const c = await acquire(driverFor(pool, 100));
    const wrapper = c.promise();
    expect(wrapper).toMatchObject({ connection: pool.connection });
    expect(c.promise()).toBe(wrapper);
    expect(c.promise(Promise)).not.toBe(wrapper);
  });
});
